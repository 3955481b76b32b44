/**
 * The chaos invariants for every catalogue operation (catalogue.ts) against a connected system that
 * answers in the `uuid` shape (service.ts, Profile): each operation once, with one of two fixed
 * seeds and its credential mode (run.ts, describeProfileChaos; chaos.test.ts soaks the modes and
 * seeds, CHAOS_SEEDS does not widen this one). What the catalogue-drawn scenarios cover and leave
 * out: README.md in this folder.
 */
import { catalogueScenarios } from './catalogue';
import { describeProfileChaos } from './run';

describeProfileChaos(catalogueScenarios('uuid'), 500, 2);
