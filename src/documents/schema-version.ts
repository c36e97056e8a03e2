/** The world data schema this build writes (the migration to it is loaded only when a world is older). */
export const SCHEMA_VERSION = 6;

/** The update option the world migration marks its writes with (its value: the version written): no health changes in them. */
export const MIGRATION_OPTION = 'ten-segmentsMigration';

/** The update option marking the active GM's own copies of the flow onto actors (sync.ts): no damage (damage.ts). */
export const SYNC_OPTION = 'tensegSync';
