/** The world data schema this build writes (the migration to it is loaded only when a world is older). */
export const SCHEMA_VERSION = 4;
