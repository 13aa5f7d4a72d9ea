// The PostgreSQL NOTIFY channel a saved feed change is announced on; every
// scheduler LISTENs on it (jobs/scheduler.ts), whichever instance it runs in.
export const FEEDS_CHANGED_CHANNEL = "feeds_changed";
