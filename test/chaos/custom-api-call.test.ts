/**
 * The chaos suite, Custom API Call: POST, PUT, PATCH and DELETE on the four hosts, a GET of one
 * record (a person with lists inside it), and GET lists with Return All, Limit (Simplify off) and
 * Page at a Time (looped batch by batch), in both credential modes against the seeded fault service,
 * every invariant checked after every run (see chaos.test.ts).
 */
import { describeChaos } from './run';
import { CUSTOM_SCENARIOS } from './scenarios';

describeChaos(CUSTOM_SCENARIOS, 50);
