/** The world data schema this build writes (the migration to it is loaded only when a world is older). */
export const SCHEMA_VERSION = 5;

/** The update option the world migration marks its writes with (its value: the version written): no health changes in them. */
export const MIGRATION_OPTION = 'ten-segmentsMigration';
