export { Measurement, type MetricReader, type TimerQuery } from "./measurement.js";
export { RankProfile } from "./rank-profile.js";
export { ProfileArena } from "./profile-arena.js";
export { TimerTable, APPLICATION_TIMER, MPI_GROUP, COMPONENT_GROUP, DEFAULT_GROUP } from "./timer-table.js";
export { UserEvents, type UserEventStats } from "./user-events.js";
