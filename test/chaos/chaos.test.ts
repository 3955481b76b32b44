/**
 * The chaos suite, the node's own operations: Person › Create (POST), Borrower › Update and
 * Person › Update (PUT), Person › Get Many with Return All and Page at a Time (looped batch by batch),
 * and Person › Find and Create or Update (the people list's pages, GETs and writes in one run,
 * people.ts), in both credential modes, against a service that draws a fault for every request from
 * a seed (service.ts, faults.ts). After every run every invariant of invariants.ts is checked. Seeds
 * are fixed (CHAOS_SEEDS=1,2,3 by default); CHAOS_SEEDS=1-40 soaks. A failure names its seed, the
 * run and the faults it drew, to replay it.
 */
import { peopleScenarios } from './people';
import { describeChaos } from './run';
import { NODE_SCENARIOS } from './scenarios';

// The people scenarios last: the others keep their places, and so their seeds.
describeChaos(
	[
		...NODE_SCENARIOS,
		...peopleScenarios('default', 'find'),
		...peopleScenarios('default', 'upsert'),
	],
	0,
);
