/**
 * Token movement: what the system reads of Foundry's movement API, typed the
 * same in both generations.
 *
 * 1. The `moveToken` hook. Foundry v13 API documentation, hookEvents.moveToken:
 *    `moveToken(document: TokenDocument, movement: DeepReadonly<TokenMovementOperation>,
 *    operation: Partial<DatabaseUpdateOperation>, user: User)`, "fires for every
 *    Token document that was moved after conclusion of an update workflow … for
 *    all connected clients after the update has been processed" (v14: the same).
 *    fvtt-types 13.345.1 has no `moveToken` in its hooks (14.366 has it). It is
 *    declared here with the part of TokenMovementOperation the system reads
 *    (`TenSegmentsMovement.Movement`: v13 and v14 document these fields alike),
 *    so the one handler (src/documents/token-movement.ts) reads the same shape
 *    under both typings; v14's own declaration hands a movement that has them.
 * 2. The system's one token update option, `tenSegments` (`Tag`): a move the
 *    system itself makes (a charger's share of its path, D2's charge moves; a
 *    move taken back at the GM's word) carries it, and the active GM's
 *    `moveToken` handler skips such a move when this client made it. Core
 *    passes an update operation's own keys through to the `moveToken` hook of
 *    every client (TokenDocument#move: "options — Parameters of the update
 *    operation"). The typings declare TokenDocument's update operation in a
 *    module their exports do not reach (a global alias names it), so the
 *    option cannot be added to it here: `systemMove`
 *    (src/documents/token-moved.ts) passes it as a typed object of its own.
 */
declare global {
  namespace TenSegmentsMovement {
    /** A token position (TokenPosition): top-left corner in pixels, size in grid spaces. */
    interface Position {
      readonly x: number;
      readonly y: number;
      readonly elevation?: number;
      readonly width: number;
      readonly height: number;
    }

    /** TokenMeasuredMovementWaypoint: a position the token passes, with the user who moved it there. */
    interface Waypoint extends Position {
      readonly action?: string;
      readonly userId?: string;
    }

    /** TokenMovementSectionData: the waypoints of a part of the movement and core's measure of it. */
    interface Section {
      readonly waypoints: readonly Waypoint[];
      readonly distance: number;
    }

    /** What the system reads of a TokenMovementOperation (v13 and v14 API documentation). */
    interface Movement {
      /** The ID of the movement. */
      readonly id: string;
      /** The origin of movement. */
      readonly origin: Position;
      /** The destination of movement. */
      readonly destination: Position;
      /** The waypoints and measurements of the passed path (this operation's part). */
      readonly passed: Section;
      /** The waypoints and measurements of the pending path (still to come, in later operations). */
      readonly pending: Section;
      /** The method of movement: "api", "config", "dragging", "keyboard", "paste" or "undo". */
      readonly method: string;
    }

    /** The system's own update option: a move the system makes, which the GM's handler does not judge again. */
    interface Tag {
      /** A charger's share of its path (D2, src/documents/charge-moves.ts). */
      charge?: boolean;
      /** A move taken back at the GM's word ("Undo the move", src/documents/token-moved.ts). */
      undo?: boolean;
    }

    /** The update operation a movement came in, as the hook hands it: the system reads only its own option. */
    interface Operation {
      readonly tenSegments?: Readonly<Tag>;
    }
  }
}

declare module 'fvtt-types/configuration' {
  namespace Hooks {
  interface HookConfig {
    /** Foundry v13/v14 hookEvents.moveToken (missing from fvtt-types 13.345.1): see above. */
    moveToken: (document: TokenDocument.Implementation, movement: TenSegmentsMovement.Movement, operation: TenSegmentsMovement.Operation, user: User.Implementation) => void;
  }
  }
}

export {};
