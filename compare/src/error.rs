//! The one error type of the comparison: every failure on a normal path (an unknown
//! scene name, a body either engine refuses, a failed step, an unwritable output
//! file) ends here and is printed by `main` with a non-zero exit code.

use std::fmt;

/// Why a comparison run could not finish.
#[derive(Debug)]
pub enum CompareError {
    /// A scene name that `thud_scene::standard` does not know.
    UnknownScene(String),
    /// A scene thud could not build.
    Scene(thud_scene::SceneError),
    /// A body the Rapier converter cannot represent.
    Unsupported {
        /// The body's name.
        body: String,
        /// What is missing.
        what: &'static str,
    },
    /// A failed thud step.
    Step(String),
    /// A bad command-line value.
    Usage(String),
    /// An output file that could not be written.
    Io {
        /// The path.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
}

impl fmt::Display for CompareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompareError::UnknownScene(name) => write!(
                f,
                "unknown scene `{name}` (known: all, {})",
                thud_scene::STANDARD_NAMES.join(", ")
            ),
            CompareError::Scene(e) => write!(f, "building the thud world: {e}"),
            CompareError::Unsupported { body, what } => {
                write!(
                    f,
                    "body `{body}`: the Rapier converter does not support {what}"
                )
            }
            CompareError::Step(e) => write!(f, "thud step failed: {e}"),
            CompareError::Usage(e) => write!(f, "{e}"),
            CompareError::Io { path, source } => write!(f, "writing {path}: {source}"),
        }
    }
}

impl std::error::Error for CompareError {}

impl From<thud_scene::SceneError> for CompareError {
    fn from(e: thud_scene::SceneError) -> Self {
        CompareError::Scene(e)
    }
}
