/**
 * Page at a Time (nodes/IntegrationService/transport/cursor.ts and the batch path of paging.ts) against a
 * fake context: batches put together are the list, each record once; a cursor is input and is refused
 * unless it is exactly what a batch gave; the loop and progress rules hold from batch to batch.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	decodeCursor,
	digest,
	encodeCursor,
	SEEN_KEPT,
} from '../../nodes/IntegrationService/transport/cursor';
import type { ListPosition } from '../../nodes/IntegrationService/transport/cursor';
import type { PageRequest, ServiceRequest } from '../../nodes/IntegrationService/transport';
import {
	DEFAULT_SETTINGS,
	newRun,
	serviceRequestPages,
} from '../../nodes/IntegrationService/transport';
import type { Scripted, SentRequest } from './fakes';
import { fakeServiceContext } from './fakes';

const LIST: ServiceRequest = { method: 'GET', host: 'crm', path: ['people'] };
const run = () => newRun({ ...DEFAULT_SETTINGS, maxRequestsPerSecond: 0, initialDelayMs: 1 });
const SEED = Number(process.env.PROPERTY_SEED ?? 20261124);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

type Kind = 'offset' | 'next' | 'link';

/**
 * A list of `total` people paged by one kind. `own` is the service's page size when it ignores the
 * limit asked for (cursor and link paging only: offset paging always honours limit).
 */
function listService(total: number, kind: Kind, own?: number) {
	return (request: SentRequest): Scripted => {
		const asked = Number(request.qs?.limit ?? 0);
		let start = Number(request.qs?.offset ?? 0);
		if (request.qs?.next !== undefined) start = Number(String(request.qs.next).slice(1));
		const from = new URL(request.url).searchParams.get('from');
		if (from !== null) start = Number(from);
		const size = kind !== 'offset' && own !== undefined ? own : from !== null ? (own ?? 3) : asked;
		const end = Math.min(total, start + size);
		const people = Array.from({ length: end - start }, (_, i) => ({ id: String(start + i) }));
		const meta: IDataObject = { total };
		if (kind === 'offset') meta.offset = start;
		if (kind === 'next' && end < total) meta.next = `c${end}`;
		if (kind === 'link' && end < total) meta.nextLink = `/api/people?from=${end}`;
		return { people, _metadata: meta };
	};
}

async function batch(
	service: Parameters<typeof fakeServiceContext>[0],
	cursor: string,
	limit: number,
	list: Partial<PageRequest> = {},
) {
	const fake = fakeServiceContext(service);
	const records: IDataObject[] = [];
	const outcome = await serviceRequestPages
		.call(
			fake.ctx,
			0,
			{
				request: LIST,
				pageSize: 4,
				recordsKey: 'people',
				maxRecords: limit,
				batch: { cursor, field: 'Cursor' },
				...list,
			},
			run(),
			(page) => records.push(...page),
		)
		.then(
			(result) => ({ result, error: undefined }),
			(error: Error) => ({ result: undefined, error }),
		);
	return { ...outcome, records, sent: fake.sent };
}

/** Runs batches until done (at most `maxBatches`): the ids of every batch, and how it ended. */
async function exportAll(
	service: Parameters<typeof fakeServiceContext>[0],
	limit: number,
	maxBatches: number,
	pageSize = 4,
) {
	const batches: string[][] = [];
	let cursor = '';
	for (let i = 0; i < maxBatches; i++) {
		const outcome = await batch(service, cursor, limit, { pageSize });
		if (outcome.error) return { batches, error: outcome.error };
		batches.push(outcome.records.map((record) => String(record.id)));
		if (outcome.result?.nextCursor === undefined) return { batches, done: true };
		cursor = outcome.result.nextCursor;
	}
	return { batches, done: false };
}

describe('Page at a Time: batches put together are the list', () => {
	it('offset paging: 10 people in batches of 3 over pages of 4', async () => {
		const result = await exportAll(listService(10, 'offset'), 3, 10);
		expect(result.batches).toEqual([['0', '1', '2'], ['3', '4', '5'], ['6', '7', '8'], ['9']]);
		expect(result.done).toBe(true);
	});

	it('a batch that ends the list exactly says done without another request', async () => {
		const outcome = await batch(listService(4, 'offset'), '', 4);
		expect(outcome.records).toHaveLength(4);
		expect(outcome.result?.nextCursor).toBeUndefined();
		expect(outcome.sent).toHaveLength(1);
	});

	it('property: any size, page size, batch size and paging kind, each record once and in order', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 0, max: 40 }),
				fc.constantFrom<Kind>('offset', 'next', 'link'),
				fc.option(fc.integer({ min: 1, max: 9 }), { nil: undefined }),
				fc.integer({ min: 1, max: 12 }),
				fc.integer({ min: 1, max: 7 }),
				async (total, kind, own, limit, pageSize) => {
					const result = await exportAll(listService(total, kind, own), limit, total + 3, pageSize);
					expect(result.error).toBeUndefined();
					expect(result.done).toBe(true);
					expect(result.batches.flat()).toEqual(Array.from({ length: total }, (_, i) => String(i)));
					for (const ids of result.batches) expect(ids.length).toBeLessThanOrEqual(limit);
					// At most one empty batch, at the end, when the list ended exactly at a batch's end.
					expect(result.batches.length).toBeLessThanOrEqual(Math.ceil(total / limit) + 1);
				},
			),
			{ seed: SEED, numRuns: RUNS },
		);
	});
});

describe('Page at a Time: a cursor is input', () => {
	const list = digest('any list');
	const position: ListPosition = {
		list,
		at: { next: 'c4' },
		skip: 1,
		sent: 5,
		announced: 9,
		seen: [digest('next:c4')],
	};

	it('decodes exactly what it encoded', () => {
		expect(decodeCursor(encodeCursor(position), list)).toEqual({ position });
	});

	const forged = (value: unknown) =>
		'isc1.' + Buffer.from(JSON.stringify(value)).toString('base64url');
	it.each([
		['not ours', 'abc'],
		['not base64 JSON', 'isc1.!!!'],
		['an extra key', forged({ ...position, url: 'https://evil.test' })],
		['a negative offset', forged({ ...position, at: { offset: -1 }, skip: 0 })],
		['an offset with a skip', forged({ ...position, at: { offset: 4 }, skip: 2 })],
		['two positions', forged({ ...position, at: { offset: 4, next: 'x' } })],
		['a fractional count', forged({ ...position, sent: 1.5 })],
		[
			'too many cursors seen',
			forged({
				...position,
				seen: Array.from({ length: SEEN_KEPT + 1 }, (_, i) => digest(String(i))),
			}),
		],
		['a seen entry that is no digest', forged({ ...position, seen: ['https://evil.test'] })],
		['a huge cursor', 'isc1.' + 'A'.repeat(20_000)],
	])('refuses %s', (_what, cursor) => {
		expect(decodeCursor(cursor, list)).toEqual({
			refused: expect.stringContaining('is not a cursor this operation gave'),
		});
	});

	it('refuses a cursor of another list, naming the field, and sends nothing', async () => {
		const first = await batch(listService(10, 'offset'), '', 3, {
			request: { ...LIST, qs: { stage: 'lead' } },
		});
		const cursor = first.result?.nextCursor as string;
		const again = await batch(listService(10, 'offset'), cursor, 3);
		expect(again.error?.message).toBe(
			'Cursor: was given for another list (a different host, path or Query Parameters); leave it empty to start this list',
		);
		expect(again.error?.constructor.name).toBe('NodeOperationError');
		expect(again.sent).toEqual([]);
	});

	it('property: a cursor naming any link sends to the host it was made for, or nothing', async () => {
		const listId = (await batch(listService(10, 'link'), '', 3)).result?.nextCursor as string;
		const { position: made } = decodeCursor(
			listId,
			(JSON.parse(Buffer.from(listId.slice(5), 'base64url').toString()) as ListPosition).list,
		) as { position: ListPosition };
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(
					fc.webUrl({ withQueryParameters: true, withFragments: true }),
					fc.string({ maxLength: 40 }).map((path) => `/${path}`),
					fc.constantFrom(
						'//evil.test/api/people',
						'https://user:pw@crm.test/api/people',
						'http://crm.test/api/people',
						'javascript:alert(1)',
					),
				),
				async (link) => {
					const cursor = encodeCursor({ ...made, at: { link } });
					const outcome = await batch(listService(10, 'link'), cursor, 3);
					for (const request of outcome.sent)
						expect(new URL(request.url).origin).toBe('https://crm.test');
					if (outcome.sent.length === 0)
						expect(outcome.error?.message).toMatch(
							/^Cursor: names a page on another origin|^Cursor: is not a cursor/,
						);
				},
			),
			{ seed: SEED, numRuns: RUNS },
		);
	});
});

describe('Page at a Time: the paging rules hold from batch to batch', () => {
	it('a next cursor that comes back in a later batch stops paging', async () => {
		// c1 → c2 → c1 …: each batch reads one page, so no single run sees the loop.
		const looping = (request: SentRequest): Scripted => {
			const next = request.qs?.next === 'c1' ? 'c2' : 'c1';
			return { people: [{ id: `${request.qs?.next ?? 'start'}` }], _metadata: { next } };
		};
		const result = await exportAll(looping, 1, 10, 1);
		expect(result.error?.message).toBe(
			'Paging stopped: the service returned the same next-page cursor twice',
		);
		expect(result.batches.length).toBeLessThanOrEqual(3);
	});

	it('a service that serves the same page again in the next batch is stopped', async () => {
		// Ignores the offset and does not say which it served.
		const stuck = (): Scripted => ({ people: [{ id: 'a' }, { id: 'b' }] });
		const result = await exportAll(stuck, 2, 10, 2);
		expect(result.error?.message).toBe(
			'Paging stopped: the service returned the same records again (it does not move to the next page)',
		);
		expect(result.batches).toEqual([['a', 'b']]);
	});

	it('the total the first page announced bounds every later batch', async () => {
		// Announces 4 and never ends, with fresh ids on every page.
		const endless = (request: SentRequest): Scripted => {
			const start = Number(request.qs?.offset ?? 0);
			return {
				people: [{ id: String(start) }, { id: String(start + 1) }],
				_metadata: { total: start === 0 ? 4 : 1_000_000, offset: start },
			};
		};
		const result = await exportAll(endless, 2, 20, 2);
		expect(result.error?.message).toMatch(
			/^Paging stopped: the service announced 4 records but goes on past/,
		);
		expect(result.batches.length).toBeLessThan(5);
	});

	it('a next-page link to another origin at the end of a batch is refused, unsent, by the next batch', async () => {
		const foreign = (): Scripted => ({
			people: [{ id: '1' }],
			_metadata: { nextLink: 'https://evil.test/api/people?from=1' },
		});
		const first = await batch(foreign, '', 1, { pageSize: 1 });
		// The batch is complete; its cursor names the foreign link, which the next batch checks before sending.
		expect(first.sent.map((request) => new URL(request.url).origin)).toEqual(['https://crm.test']);
		const next = await batch(foreign, first.result?.nextCursor as string, 1, { pageSize: 1 });
		expect(next.sent).toEqual([]);
		expect(next.error?.message).toBe(
			'Cursor: names a page on another origin (https://evil.test); it is not followed with your token',
		);
	});
});
