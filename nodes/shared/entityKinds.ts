import { SYNC_KINDS } from './catalogue';

/**
 * The 27 entity kinds of spec 2.3, in the specification's order: the flags a connection synchronises
 * (Entities to Sync). Kept for its importers; the catalogue (nodes/shared/catalogue) owns the list.
 */
export const ENTITY_KINDS: readonly string[] = SYNC_KINDS;
