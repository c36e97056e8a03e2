/**
 * A document in a world collection has an id; v14's typings ask for that
 * (`Actor.Stored`) where the id is used, e.g. a chat card's speaker.
 */
export function storedActor(actor: Actor.Implementation | null | undefined): Actor.Stored | undefined {
  return actor && isStored(actor) ? actor : undefined;
}

function isStored(actor: Actor.Implementation): actor is Actor.Stored {
  return actor.id !== null;
}
