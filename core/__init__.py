"""The platform-neutral game of General: rules, state machine, view, service and storage port."""
