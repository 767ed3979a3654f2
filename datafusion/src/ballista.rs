//! The IRI functions on Ballista: a standalone cluster (scheduler and executor in
//! this process, talking gRPC over loopback) whose executor carries the UDFs.
//!
//! Ballista ships a plan to its executors as protobuf, where a scalar UDF is only a
//! name; each executor looks the name up in its own function registry. So the
//! functions must be registered where the plan runs, not only where it is planned:
//! [`standalone`] builds one `SessionState` with the functions and hands it to both
//! the scheduler and the executor (`standalone_with_state`), whose registry is taken
//! from that state. An executor of a real cluster (another process, another machine)
//! needs the same: a small executor binary that builds its registry with
//! [`crate::udf::udfs`] (`ExecutorProcessConfig::override_function_registry` in
//! `ballista-executor`); the stock `ballista-executor` binary does not know them.

use ballista::prelude::{SessionConfigExt, SessionContextExt};
use datafusion::execution::SessionStateBuilder;
use datafusion::prelude::{SessionConfig, SessionContext};

/// A context running its queries on a standalone Ballista cluster of
/// `parallelism` task slots, with the IRI functions registered on the client, the
/// scheduler and the executor.
pub async fn standalone(parallelism: usize) -> datafusion::error::Result<SessionContext> {
    let config = SessionConfig::new_with_ballista()
        .with_target_partitions(parallelism.max(1))
        .with_ballista_standalone_parallelism(parallelism.max(1))
        .with_information_schema(true);
    let mut state = SessionStateBuilder::new()
        .with_config(config)
        .with_default_features()
        .build();
    crate::register_state(&mut state)?;
    // The scheduler and the executor get `state` as it is. The client's own state
    // is rebuilt by `upgrade_for_ballista`, whose `with_scalar_functions` replaces
    // the list with Ballista's defaults (Ballista 55): register the functions again
    // on the client, or the SQL planner does not know them.
    let ctx = SessionContext::standalone_with_state(state).await?;
    crate::register(&ctx);
    Ok(ctx)
}
