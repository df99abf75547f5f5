//! Wire types for both protocol eras. Unknown fields are tolerated everywhere.

mod elicit;

pub use elicit::{ElicitAction, ElicitRequestParams, ElicitResult, ElicitationComplete};
