/**
 * The chaos invariants against connected systems' shapes (test/sandbox/profiles.ts): Person › Update
 * with numeric IDs from the items, Person › Get Many with numeric IDs batch by batch, Note › Get
 * Many with UUIDs; one fixed seed (CHAOS_SEEDS does not widen it: chaos.test.ts soaks the rules).
 */
import { describeChaos } from './run';
import { PROFILE_SCENARIOS } from './scenarios';

describeChaos(PROFILE_SCENARIOS, 20, [7]);
