//! Errors of loading and running scenes, each pointing at the place in the file.

use std::fmt;

/// Where in a scene file something is: `file:line:column`, 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// File name (or `<string>` for text that came from no file).
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// Why a scene could not be loaded, built or run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SceneError {
    /// The file could not be read.
    #[error("{file}: cannot read: {message}")]
    Io {
        /// File name.
        file: String,
        /// The system's reason.
        message: String,
    },
    /// The text is not a valid scene: bad syntax, unknown or missing field, wrong type.
    #[error("{location}: {field}: {message}")]
    Syntax {
        /// Where.
        location: Location,
        /// The field concerned (`?` when it cannot be told).
        field: String,
        /// What is wrong.
        message: String,
    },
    /// The scene parses but makes no sense: an unknown body name, a negative size, …
    #[error("{location}: {field}: {message}")]
    Invalid {
        /// Where (the best place found in the text; line 1 for built-in scenes).
        location: Location,
        /// The field concerned, as a path (`timeline[2].action.body`).
        field: String,
        /// What is wrong.
        message: String,
    },
    /// A scene name that is neither a built-in demo nor a readable file.
    #[error("unknown scene `{0}` (try `thud list`, or give a .ron file)")]
    UnknownScene(String),
    /// The engine refused something while building or running the scene.
    #[error("engine error{}: {message}", body.as_ref().map(|b| format!(" for body `{b}`")).unwrap_or_default())]
    Engine {
        /// The body concerned, when there is one.
        body: Option<String>,
        /// The engine's message.
        message: String,
    },
    /// A joint could not be made: a body name not in the world, or the engine refused it.
    #[error("joint {joint}: {message}")]
    Joint {
        /// Index of the joint in the scene's `joints`.
        joint: usize,
        /// What is wrong.
        message: String,
    },
}
