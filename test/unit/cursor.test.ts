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
	listDigest,
	MAX_TEXT,
} from '../../nodes/IntegrationService/transport/cursor';
import type { ListPosition } from '../../nodes/IntegrationService/transport/cursor';
import { secretForms } from '../../nodes/IntegrationService/transport/secrets';
import type {
	Connection,
	PageRequest,
	ServiceRequest,
} from '../../nodes/IntegrationService/transport';
import {
	CREDENTIAL_DEFAULT,
	DEFAULT_SETTINGS,
	newRun,
	serviceRequestPages,
} from '../../nodes/IntegrationService/transport';
import { MAX_UNANNOUNCED_RECORDS } from '../../nodes/IntegrationService/transport/paging';
import type { Scripted, SentRequest } from './fakes';
import { credentials, fakeServiceContext, TOKEN } from './fakes';

const LIST: ServiceRequest = {
	method: 'GET',
	host: 'crm',
	connection: CREDENTIAL_DEFAULT,
	path: ['people'],
};
/** A cursor of a position short enough to carry (encodeCursor gives none for a longer one). */
function encoded(position: ListPosition): string {
	const cursor = encodeCursor(position);
	if (cursor === undefined) throw new Error('no cursor for this position');
	return cursor;
}
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
	creds: IDataObject = credentials(),
) {
	const fake = fakeServiceContext(service, creds);
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

/**
 * Runs batches until done (at most `maxBatches`): the ids of every batch, and how it ended. Every
 * batch uses the one credential, as an export's executions do (its secrets' forms are made once).
 */
async function exportAll(
	service: Parameters<typeof fakeServiceContext>[0],
	limit: number,
	maxBatches: number,
	pageSize = 4,
) {
	const batches: string[][] = [];
	const creds = credentials();
	let cursor = '';
	for (let i = 0; i < maxBatches; i++) {
		const outcome = await batch(service, cursor, limit, { pageSize }, creds);
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
		loop: { mark: digest('next:c4'), steps: 2, power: 4 },
		pageLoop: { mark: digest('a\u0000b'), steps: 0, power: 2 },
	};

	it('decodes exactly what it encoded', () => {
		expect(decodeCursor(encoded(position), list)).toEqual({ position });
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
		['no loop check', forged({ ...position, loop: undefined })],
		['a loop check past its power', forged({ ...position, loop: { ...position.loop, steps: 4 } })],
		['a loop power that is no power of two', forged({ ...position, loop: { steps: 0, power: 3 } })],
		['a loop check with no checkpoint', forged({ ...position, loop: { steps: 1, power: 4 } })],
		[
			'a first loop check with a checkpoint',
			forged({ ...position, loop: { mark: digest('x'), steps: 0, power: 1 } }),
		],
		[
			'a loop checkpoint that is no digest',
			forged({ ...position, loop: { mark: '/api/x', steps: 0, power: 2 } }),
		],
		['a loop check with an extra key', forged({ ...position, loop: { ...position.loop, x: 1 } })],
		['no page loop check', forged({ ...position, pageLoop: undefined })],
		[
			'a page loop check past its power',
			forged({ ...position, pageLoop: { ...position.pageLoop, steps: 2 } }),
		],
		[
			'a page loop checkpoint that is no digest',
			forged({ ...position, pageLoop: { mark: 'r1', steps: 0, power: 2 } }),
		],
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
			'Cursor: was given for another list (a different host URL, path, Query Parameters or Connection ID); leave it empty to start this list',
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
					const cursor = encoded({ ...made, at: { link } });
					const outcome = await batch(listService(10, 'link'), cursor, 3);
					for (const request of outcome.sent)
						expect(new URL(request.url).origin).toBe('https://crm.test');
					if (outcome.sent.length === 0)
						expect(outcome.error?.message).toMatch(
							/^Cursor: names a page on another origin|^Cursor: names a page of another list|^Cursor: is not a cursor/,
						);
				},
			),
			{ seed: SEED, numRuns: RUNS },
		);
	});
});

/** The position a cursor holds, read without checking it (a test forges cursors from it). */
const positionOf = (cursor: string) =>
	JSON.parse(Buffer.from(cursor.slice('isc1.'.length), 'base64url').toString()) as ListPosition;

describe('Page at a Time: a cursor continues its own list, or nothing is sent', () => {
	const linkCursor = async () =>
		positionOf((await batch(listService(10, 'link'), '', 3)).result?.nextCursor as string);

	it.each([
		[
			'another path on the origin',
			'https://crm.test/api/credentials',
			'its path is not /api/people',
		],
		['an admin path with a query', '/admin/wipe?confirm=yes', 'its path is not /api/people'],
		['a path below the list', '/api/people/p_1', 'its path is not /api/people'],
		['encoded dot segments', '/api/people/%2e%2e/%2e%2e/internal', 'it has a "." or ".." segment'],
		[
			'dot segments back to the list itself',
			'/api/people/%2E%2e/people?from=3',
			'it has a "." or ".." segment',
		],
		['a raw dot segment', 'https://crm.test/api/./people?from=3', 'it has a "." or ".." segment'],
		['a mixed-encoding dot segment', '/api/people/.%2E/people', 'it has a "." or ".." segment'],
		['a backslash dot segment', '/api/people\\..\\people', 'it has a "." or ".." segment'],
		['a tab inside a dot segment', '/api/people/.\t./people', 'it contains a control character'],
	])('a link to %s is refused before sending', async (_what, link, why) => {
		const made = await linkCursor();
		const outcome = await batch(listService(10, 'link'), encoded({ ...made, at: { link } }), 3);
		expect(outcome.sent).toEqual([]);
		expect(outcome.error?.message).toBe(
			`Cursor: names a page of another list (${why}); it is not followed`,
		);
		expect(outcome.error?.constructor.name).toBe('NodeOperationError');
	});

	it("the list's identity holds the host URL and the effective Connection ID", async () => {
		const first = await batch(listService(10, 'offset'), '', 3);
		const cursor = first.result?.nextCursor as string;
		expect(positionOf(cursor).list).toBe(listDigest(LIST, 'https://crm.test', 'cred-1'));
		const refused =
			'Cursor: was given for another list (a different host URL, path, Query Parameters or Connection ID); leave it empty to start this list';
		// The credential's Default Credential ID changed from cred-1 to def-B: another tenant's list.
		const otherDefault = await batch(
			listService(10, 'offset'),
			cursor,
			3,
			{},
			credentials({ credentialId: 'def-B' }),
		);
		expect(otherDefault.error?.message).toBe(refused);
		expect(otherDefault.sent).toEqual([]);
		const otherHost = await batch(
			listService(10, 'offset'),
			cursor,
			3,
			{},
			credentials({ crmUrl: 'https://crm2.test' }),
		);
		expect(otherHost.error?.message).toBe(refused);
		expect(otherHost.sent).toEqual([]);
		const otherOverride = await batch(listService(10, 'offset'), cursor, 3, {
			request: { ...LIST, connection: { credentialId: 'conn-9' } as Connection },
		});
		expect(otherOverride.error?.message).toBe(refused);
		// The same Connection ID given as an override is the same list.
		const sameOverride = await batch(listService(10, 'offset'), cursor, 3, {
			request: { ...LIST, connection: { credentialId: 'cred-1' } as Connection },
		});
		expect(sameOverride.error).toBeUndefined();
		expect(sameOverride.records.map((record) => record.id)).toEqual(['3', '4', '5']);
	});

	it('property: any cursor either continues its own list or fails before sending', async () => {
		const made = await linkCursor();
		const dot = fc
			.constantFrom('.', '..', '%2e', '.%2e', '%2e.', '%2e%2e')
			.chain((form) =>
				fc
					.array(fc.boolean(), { minLength: form.length, maxLength: form.length })
					.map((upper) => [...form].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')),
			);
		const segment = fc.oneof(
			fc.constantFrom('api', 'people', 'credentials', 'admin', 'internal', ''),
			fc.string({ maxLength: 6 }),
			dot,
		);
		const path = fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`);
		const query = fc.constantFrom('', '?from=3', '?confirm=yes', '?from=1&x=%2e%2e/..', '#..');
		const origin = fc.constantFrom(
			'',
			'https://crm.test',
			'https://evil.test',
			'http://crm.test',
			'//crm.test',
		);
		const link = fc.oneof(
			fc.tuple(origin, path, query).map(([o, p, q]) => `${o}${p}${q}`),
			fc.tuple(origin, query).map(([o, q]) => `${o}/api/people${q}`),
			fc.webUrl({ withQueryParameters: true, withFragments: true }),
		);
		const connection = fc.constantFrom('cred-1', 'cred-2', 'def-B', ' cred-1 ');
		const hasDot = (written: string) =>
			written
				.split(/[?#]/, 1)[0]
				.split(/[/\\]/)
				.some((part) => ['.', '..'].includes(part.replace(/%2e/gi, '.')));
		await fc.assert(
			fc.asyncProperty(link, connection, async (written, connectionId) => {
				const list = listDigest(LIST, 'https://crm.test', connectionId.trim());
				const cursor = encoded({ ...made, list, at: { link: written } });
				const outcome = await batch(listService(10, 'link'), cursor, 3);
				for (const request of outcome.sent) {
					expect(new URL(request.url).origin).toBe('https://crm.test');
					expect(new URL(request.url).pathname).toBe('/api/people');
				}
				if (outcome.sent.length === 0) expect(outcome.error?.message).toMatch(/^Cursor: /);
				if (connectionId.trim() !== 'cred-1' || hasDot(written)) expect(outcome.sent).toEqual([]);
			}),
			{ seed: SEED, numRuns: RUNS * 2 },
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

	/** A service whose nextLink carries `padding` characters of filter in its query. */
	const longLinks =
		(padding: number) =>
		(request: SentRequest): Scripted => {
			const from = Number(new URL(request.url).searchParams.get('from') ?? 0);
			return {
				people: [{ id: String(from) }],
				_metadata: { nextLink: `/api/people?from=${from + 1}&f=${'x'.repeat(padding)}` },
			};
		};

	it.each([5_000, 8_000])(
		'a nextLink of about %i characters gives a cursor the next batch takes back',
		async (padding) => {
			const first = await batch(longLinks(padding), '', 1, { pageSize: 1 });
			const cursor = first.result?.nextCursor as string;
			expect(cursor.length).toBeGreaterThan(padding);
			const next = await batch(longLinks(padding), cursor, 1, { pageSize: 1 });
			expect(next.error).toBeUndefined();
			expect(next.records).toEqual([{ id: '1' }]);
			expect(new URL(next.sent[0].url).searchParams.get('from')).toBe('1');
		},
	);

	it('a nextLink too long to carry ends the batch with an error, not a cursor that would be refused', async () => {
		const first = await batch(longLinks(15_500), '', 1, { pageSize: 1 });
		expect(first.result).toBeUndefined();
		expect(first.sent).toHaveLength(1);
		expect(first.error?.message).toMatch(
			/^Paging stopped: the service's link to the next page is 155\d\d characters long, more than a Page at a Time cursor carries \(8192\), so this list cannot be continued batch by batch; Return All or a Limit reads it in one run$/,
		);
		// Only a read was sent: a model is not told to correct its input.
		expect((first.error as Error & { context: IDataObject }).context.nextStep).toMatch(
			/^Only reads were sent, nothing was changed/,
		);
	});

	it.each<[string, () => (request: SentRequest) => Scripted, RegExp]>([
		[
			'the same page again',
			() => () => ({ people: [{ id: '1' }], _metadata: { nextLink: '/api/people?from=1' } }),
			/^Paging stopped: the service returned the same records again/,
		],
		[
			'more records than announced',
			() => {
				let served = 0;
				return () => ({
					people: [{ id: String(served++) }],
					_metadata: { total: 1, nextLink: `/api/people?from=${served}` },
				});
			},
			/^Paging stopped: the service announced 1 records? but goes on past/,
		],
		[
			'no list in the answer',
			() => () => ({ persons: [] }),
			/^The service's answer has no "people" list$/,
		],
	])(
		'a list whose answers cannot be followed (%s) is no input error: only reads were sent',
		async (_name, service, message) => {
			const outcome = await batch(service(), '', 10, { pageSize: 1 });
			expect(outcome.error?.message).toMatch(message);
			expect(outcome.sent.every((request) => request.method === 'GET')).toBe(true);
			expect((outcome.error as Error & { context: IDataObject }).context.nextStep).toBe(
				"Only reads were sent, nothing was changed; the service's pages of this list cannot be followed, so calling again unchanged will fail the same way: ask for fewer records (a Limit or narrower filters), or tell the user.",
			);
		},
	);

	it('property: every cursor encodeCursor gives decodes; any URL up to MAX_TEXT gets one, nothing over it', () => {
		const full = {
			list: digest('l'),
			skip: 3,
			sent: 2 ** 40,
			announced: 2 ** 40,
			loop: { mark: digest('m'), steps: 1, power: 2 ** 30 },
			pageLoop: { mark: digest('q'), steps: 1, power: 2 ** 30 },
		};
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: MAX_TEXT + 50 }),
				fc.constantFrom('link', 'next'),
				fc.constantFrom('a', '%7E', 'é', '"'),
				(length, kind, unit) => {
					const text = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
					const position = { ...full, at: kind === 'link' ? { link: text } : { next: text } };
					const cursor = encodeCursor(position as ListPosition);
					if (length > MAX_TEXT) expect(cursor).toBeUndefined();
					// A URL's href is ASCII without quotes: any up to MAX_TEXT is carried.
					else if (unit === 'a' || unit === '%7E') expect(cursor).toBeDefined();
					// Whatever is handed out is taken back.
					if (cursor !== undefined) expect(decodeCursor(cursor, full.list)).toEqual({ position });
				},
			),
			{ seed: SEED, numRuns: 60 },
		);
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
	/** A service whose next cursors run c1 … c(tail + length - 1) and then back to c(tail), forever, with new records on every page and no total. */
	const cycling =
		(length: number, tail: number, perPage: number) => (): ((request: SentRequest) => Scripted) => {
			let served = 0;
			return (request) => {
				const at = request.qs?.next === undefined ? 0 : Number(String(request.qs.next).slice(1));
				const following = at + 1 < tail + length ? at + 1 : tail;
				const people = Array.from({ length: perPage }, () => ({ id: `r${served++}` }));
				return { people, _metadata: { next: `c${following}` } };
			};
		};

	it('a loop of 65 next cursors with no total, one page per batch, ends', async () => {
		// Brent's check carried in the cursor: within 2 · max(tail, period) + period batches.
		const result = await exportAll(cycling(65, 1, 2)(), 2, 400, 2);
		expect(result.error?.message).toBe(
			'Paging stopped: the service returned the same next-page cursor twice',
		);
		expect(result.batches.length).toBeLessThanOrEqual(2 * 66 + 65 + 2);
	});

	it('property: a loop of next cursors of any length, after any tail, ends read batch by batch', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 1, max: 160 }),
				fc.integer({ min: 0, max: 40 }),
				fc.integer({ min: 1, max: 3 }),
				async (length, tail, perPage) => {
					const bound = 2 * Math.max(length, tail + 1) + length + 2;
					const result = await exportAll(
						cycling(length, tail, perPage)(),
						perPage,
						bound + 5,
						perPage,
					);
					expect(result.error?.message).toBe(
						'Paging stopped: the service returned the same next-page cursor twice',
					);
					expect(result.batches.length).toBeLessThanOrEqual(bound);
				},
			),
			{ seed: SEED, numRuns: 40 },
		);
	});

	/** A service whose pages' people run page 0 … (tail + length - 1) and then back to page tail, forever, each under a new nextLink and with no total. */
	const pagesCycling =
		(length: number, tail: number, perPage: number) => (): ((request: SentRequest) => Scripted) => {
			let served = 0;
			return () => {
				const page = served < tail ? served : tail + ((served - tail) % length);
				served++;
				const people = Array.from({ length: perPage }, (_, i) => ({ id: `p${page}-${i}` }));
				return { people, _metadata: { nextLink: `/api/people?page=${served}` } };
			};
		};

	it('property: pages that repeat with any period, after any tail, under new links, end read batch by batch', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 1, max: 160 }),
				fc.integer({ min: 0, max: 40 }),
				fc.integer({ min: 1, max: 3 }),
				fc.integer({ min: 1, max: 3 }),
				async (length, tail, perPage, pagesPerBatch) => {
					// Brent's check over the pages' ids, carried in the cursor: within 2·max(L, T) + L pages.
					const bound = 2 * Math.max(length, tail + 1) + length + 2;
					const limit = perPage * pagesPerBatch;
					const result = await exportAll(
						pagesCycling(length, tail, perPage)(),
						limit,
						bound + 5,
						perPage,
					);
					expect(result.error?.message).toBe(
						'Paging stopped: the service returned the same records again (it does not move to the next page)',
					);
					expect(result.batches.length * pagesPerBatch).toBeLessThanOrEqual(bound);
				},
			),
			{ seed: SEED, numRuns: 40 },
		);
	});

	it('a list with no total, new records and new cursors forever, ends past MAX_UNANNOUNCED_RECORDS over its batches', async () => {
		let served = 0;
		const endless = (): Scripted => ({
			people: [{ id: `r${served++}` }, { id: `r${served++}` }],
			_metadata: { next: `c${served}` },
		});
		const first = await batch(endless, '', 2, { pageSize: 2 });
		// The cursor of a list that has sent just under the bound (as after about 2,000 batches of 5,000).
		const near = {
			...positionOf(first.result?.nextCursor as string),
			sent: MAX_UNANNOUNCED_RECORDS - 2,
		};
		const atBound = await batch(endless, encoded(near), 2, { pageSize: 2 });
		expect(atBound.error).toBeUndefined();
		const past = await batch(endless, atBound.result?.nextCursor as string, 2, { pageSize: 2 });
		expect(past.error?.message).toBe(
			`Paging stopped: the service announced no total and the list goes on past ${MAX_UNANNOUNCED_RECORDS} records; narrow the list with Query Parameters`,
		);
	});

	it("a token the service put in its nextLink is in no cursor and no request's URL, in any encoding", async () => {
		const token = TOKEN;
		const links = [
			`/api/people?from=3&access_token=${token}`,
			`/api/people?from=3&access_token=${encodeURIComponent(Buffer.from(token).toString('base64'))}`,
			`/api/people?from=3&auth=Bearer%20${token}&x=1`,
			'/api/people?from=3&access_token=[redacted]',
			'/api/people?from=3&access_token=%5Bredacted%5D#access_token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
		];
		for (const nextLink of links) {
			const service = (request: SentRequest): Scripted =>
				new URL(request.url).searchParams.get('from') === '3'
					? { people: [{ id: '3' }] }
					: { people: [{ id: '0' }, { id: '1' }, { id: '2' }], _metadata: { nextLink } };
			const first = await batch(service, '', 3);
			const cursor = first.result?.nextCursor as string;
			const decoded = JSON.stringify(positionOf(cursor));
			// Every form of the token (raw, URL, base64, hex, …), in the cursor as output and as decoded.
			const forms = [...secretForms(credentials()), '[redacted]', 'Bearer', 'eyJ'];
			for (const form of secretForms(credentials())) expect(cursor).not.toContain(form);
			for (const form of forms) expect(decoded).not.toContain(form);
			expect(positionOf(cursor).at).toEqual({
				link: nextLink.includes('&x=1')
					? 'https://crm.test/api/people?from=3&x=1'
					: 'https://crm.test/api/people?from=3',
			});
			const next = await batch(service, cursor, 3);
			expect(next.records.map((record) => record.id)).toEqual(['3']);
			for (const form of forms) expect(next.sent[0].url).not.toContain(form);
		}
	});
});
