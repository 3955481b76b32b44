/**
 * nodes/IntegrationService/transport/pageSteps.ts: the pager's steps between two pages, called
 * directly (no n8n context): the limit asked for, what a page gives and counts, the endless-list
 * bounds, and where a batch that ends inside a page continues.
 */
import fc from 'fast-check';

import { CREDENTIAL_DEFAULT } from '../../nodes/IntegrationService/transport';
import type { PagingState } from '../../nodes/IntegrationService/transport/pageSteps';
import {
	announcedBound,
	boundBroken,
	firstState,
	limitReached,
	MAX_RECORDS,
	MAX_UNANNOUNCED_RECORDS,
	pageLimit,
	positionInPage,
	requestFor,
	takePage,
} from '../../nodes/IntegrationService/transport/pageSteps';

const PROPERTY = { seed: 2929, numRuns: 150 };
const START = {
	firstUrl: 'https://crm.example.test/api/people',
	listPath: '/api/people',
	listName: 'people',
	base: 'https://crm.example.test',
	listId: 'list',
	forms: [],
};

function state(overrides: Partial<PagingState> = {}): PagingState {
	return { ...firstState(START, undefined, false), ...overrides };
}

describe('the first page', () => {
	it('starts at offset 0, at the service link of a named list, or where a cursor says', () => {
		expect(firstState(START, undefined, false)).toEqual({
			received: 0,
			sent: 0,
			sentOverall: 0,
			announced: undefined,
			at: { offset: 0 },
			skip: 0,
			pageUrl: START.firstUrl,
		});
		expect(firstState(START, undefined, true).at).toBeUndefined();
		const link = 'https://crm.example.test/api/people?page=3';
		const resumed = firstState(
			START,
			{
				list: 'list',
				at: { link },
				skip: 2,
				sent: 40,
				announced: 90,
				seen: [],
				loop: { steps: 0, power: 1 },
				pageLoop: { steps: 0, power: 1 },
			},
			false,
		);
		expect(resumed).toMatchObject({
			at: { link },
			skip: 2,
			sentOverall: 40,
			announced: 90,
			pageUrl: link,
		});
	});
});

describe('pageLimit and requestFor', () => {
	it('asks for a page, or what a Limit still needs plus the records to skip', () => {
		expect(pageLimit({ pageSize: 100 }, state())).toBe(100);
		expect(pageLimit({ pageSize: 100, maxRecords: 30 }, state({ received: 10 }))).toBe(20);
		expect(pageLimit({ pageSize: 100, maxRecords: 30 }, state({ received: 10, skip: 5 }))).toBe(25);
		expect(pageLimit({ pageSize: 10, maxRecords: 500 }, state())).toBe(10);
	});

	it('sends the offset or the cursor with the limit, a link as the page to follow, and the list link as it is', () => {
		const request = {
			method: 'GET' as const,
			host: 'crm' as const,
			path: ['people'],
			qs: { q: 'a' },
			connection: CREDENTIAL_DEFAULT,
		};
		expect(requestFor(request, START, { offset: 200 }, 50).qs).toEqual({
			q: 'a',
			limit: 50,
			offset: 200,
		});
		expect(requestFor(request, START, { next: 'c2' }, 50).qs).toEqual({
			q: 'a',
			limit: 50,
			next: 'c2',
		});
		expect(
			requestFor(request, START, { link: 'https://crm.example.test/api/people?p=2' }, 50).link,
		).toEqual({
			url: 'https://crm.example.test/api/people?p=2',
			relativeTo: START.firstUrl,
			what: 'a next page',
		});
		expect(requestFor(request, START, undefined, 50)).toBe(request);
	});
});

describe('takePage', () => {
	it('property: takes at most what a Limit needs, counts every fresh record, and keeps the first total announced', () => {
		fc.assert(
			fc.property(
				fc.nat(300),
				fc.nat(120),
				fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
				fc.nat(20),
				fc.option(fc.nat(1000), { nil: undefined }),
				fc.option(fc.nat(1000), { nil: undefined }),
				(received, count, limitLeft, skip, announced, total) => {
					const maxRecords = limitLeft === undefined ? undefined : received + limitLeft;
					const before = state({
						received,
						sent: received,
						sentOverall: received,
						skip,
						announced,
					});
					const records = Array.from({ length: count }, (_, i) => ({ id: i }));
					const {
						fresh,
						take,
						state: after,
					} = takePage(
						{ pageSize: 100, maxRecords },
						before,
						records,
						total === undefined ? {} : { total },
					);
					expect(fresh).toEqual(records.slice(skip));
					expect(take).toEqual(fresh.slice(0, maxRecords === undefined ? undefined : limitLeft));
					expect(after.received).toBe(received + take.length);
					expect(after.sentOverall - before.sentOverall).toBe(fresh.length);
					expect(after.announced).toBe(announced ?? total);
					expect(limitReached({ pageSize: 100, maxRecords }, after)).toBe(
						maxRecords !== undefined && after.received >= maxRecords,
					);
				},
			),
			PROPERTY,
		);
	});

	it('names the bound a page breaks: past the announced total, past memory, past an unannounced list', () => {
		const page = Array.from({ length: 100 }, (_, i) => ({ id: i }));
		const past = takePage({ pageSize: 100 }, state({ sentOverall: 300, announced: 200 }), page, {});
		expect(past.broken).toBe(
			'the service announced 200 records but goes on past 300; narrow the list with Query Parameters or use a Limit',
		);
		expect(
			takePage({ pageSize: 100 }, state({ sentOverall: 200, announced: 200 }), page, {}).broken,
		).toBeUndefined();
		expect(
			boundBroken({ sent: MAX_RECORDS + 1, sentOverall: MAX_RECORDS + 1, before: 0 }, 100),
		).toMatch(/^more than 250000 records would be held in memory at once/);
		expect(
			boundBroken(
				{ sent: 1, sentOverall: MAX_UNANNOUNCED_RECORDS + 1, before: MAX_UNANNOUNCED_RECORDS },
				100,
			),
		).toMatch(/^the service announced no total and the list goes on past 10000000 records/);
		expect(
			boundBroken(
				{ announced: 5, sent: 1, sentOverall: MAX_UNANNOUNCED_RECORDS + 1, before: 0 },
				100,
			),
		).toMatch(/^the service announced 5 records/);
	});

	it('property: a list may bring a tenth more than it announced, and at least one page', () => {
		fc.assert(
			fc.property(fc.nat(1_000_000), fc.integer({ min: 1, max: 100 }), (total, pageSize) => {
				const bound = announcedBound(total, pageSize);
				expect(
					boundBroken({ announced: total, sent: 0, sentOverall: bound, before: 0 }, pageSize),
				).toBeUndefined();
				expect(
					boundBroken({ announced: total, sent: 0, sentOverall: bound + 1, before: 0 }, pageSize),
				).toBeDefined();
				expect(bound - total).toBeGreaterThanOrEqual(pageSize);
			}),
			PROPERTY,
		);
	});
});

describe('positionInPage', () => {
	it('moves an offset past what was taken; names a cursor or link page again with the records to skip', () => {
		expect(positionInPage({ offset: 200 }, 0, 30)).toEqual({ at: { offset: 230 }, skip: 0 });
		expect(positionInPage({ next: 'c2' }, 10, 30)).toEqual({ at: { next: 'c2' }, skip: 40 });
		const link = { link: 'https://crm.example.test/api/people?p=2' };
		expect(positionInPage(link, 0, 5)).toEqual({ at: link, skip: 5 });
	});
});
