//! Nothing but the tests (`tests/policies.rs`): every policy through
//! `runqueue_sched_api::conformance!`, on the host.
