/**
 * Typing repair: v14's typings (14.366) type `CONFIG.Actor.trackableAttributes`
 * as one `{bar, value}`, but core reads it by actor type (their own remark on
 * `TokenDocument._getConfiguredTrackedAttributes`, and v13's
 * `Record<string, TrackableAttribute>`). The system fills it by type
 * (src/data/index.ts), checked against this shape.
 */
type TrackableAttributesByType = Record<string, { bar: string[]; value: string[] }>;
