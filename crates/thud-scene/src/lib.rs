//! # thud-scene
//!
//! Scripted scenes for the thud physics engine: one scene description for the demos,
//! the tests, the benches and the comparison with other engines.
//!
//! | module | what |
//! |---|---|
//! | [`schema`] | the scene description ([`Scene`], [`BodyDef`], [`ShapeDef`], …), plain serde data |
//! | [`pattern`] | grids, stacks, pyramids with seeded jitter ([`Pattern`], [`SplitMix64`]) |
//! | [`standard`](mod@standard) | the standard scenes (`tower_20`, `pyramid_20`, …, `pile_1000`) |
//! | [`timeline`] | events at given times |
//! | [`expect`] | expectations checked at given times |
//! | [`load`] | RON text → validated [`Scene`], with `file:line:column` errors |
//! | [`error`] | [`SceneError`] |
//! | [`instantiate`] | scene data → `thud_dynamics::World` |
//! | [`sim`] | [`Simulation`]: running a scene with its timeline and expectations |
//! | [`metrics`] | energy, geometric penetration, percentiles |
//! | [`summary`] | [`Summary`] (`summary.json`) and [`Report`] |
//! | [`trajectory`] | `trajectory.csv` |
//! | [`render`] | the software renderer: PNG frames and animated GIFs |

pub mod error;
pub mod expect;
pub mod instantiate;
pub mod load;
pub mod metrics;
pub mod pattern;
pub mod render;
pub mod schema;
pub mod sim;
pub mod standard;
pub mod summary;
pub mod timeline;
pub mod trajectory;

pub use error::{Location, SceneError};
pub use expect::{Check, Expectation};
pub use load::{load_file, load_str, parse_str, resolve, to_ron};
pub use pattern::{Jitter, Pattern, SplitMix64};
pub use schema::{
    BodyDef, BodyKindDef, Camera, JointDef, JointKindDef, MaterialDef, MotorDef, PartDef, Scene,
    SceneSettings, ShapeDef, SpringDef,
};
pub use sim::{RunOptions, Simulation};
pub use standard::{STANDARD_NAMES, standard};
pub use summary::{Outcome, Report, Summary};
pub use timeline::{Action, Event};
