/**
 * The Changes Trigger against a scripted service on 127.0.0.1 (test/hostile/server.ts): each time
 * field the connected systems write (text or epoch ms), numeric IDs, a clock far from n8n's, and the
 * threats of this surface: pages that repeat, a time that goes backwards or is garbage, a 429 in the
 * middle of a poll, odd records (no ID, no time, an ID past 2^53 as text or as a number), no secret in
 * any output, a listing that misses a record or comes back empty, a list past the transport's memory
 * bound, and a credential edited to point elsewhere.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { credentialsFor, sendJson, useHostile } from '../hostile/server';
import { startPoller, type Poller } from './poller';

const server = useHostile();
const TOKEN = 'token-123456-secret-abcdef';

/** The list the service holds; each GET pages it by offset and limit, with `_metadata`. */
let people: IDataObject[] = [];

function serveList(
	failOn?: (count: number) => boolean,
	/** Called with each page's offset before it is served; what it returns is the page size. */
	before?: (offset: number) => number | void,
): void {
	server.script((request, res, count) => {
		if (failOn?.(count)) {
			sendJson(res, 429, { error: 'slow down' }, { 'Retry-After': '0' });
			return;
		}
		const url = new URL(request.url, server.origin);
		const offset = Number(url.searchParams.get('offset') ?? 0);
		const limit = before?.(offset) || Number(url.searchParams.get('limit') ?? 100);
		const page = people.slice(offset, offset + limit);
		sendJson(res, 200, {
			_metadata: { collection: 'people', offset, limit, total: people.length },
			people: page,
		});
	});
}

async function poller(parameters: INodeParameters = {}): Promise<Poller> {
	return await startPoller(
		{ resource: 'person', event: 'newOrUpdated', ...parameters },
		credentialsFor(server.origin, { accessToken: TOKEN }),
	);
}

const ids = (items: IDataObject[] | undefined) => (items ?? []).map((item) => item.id);

beforeEach(() => {
	people = [];
	serveList();
});

describe('time fields and IDs as each connected system writes them', () => {
	const shapes: Array<[string, (ms: number) => string | number]> = [
		['serviceUpdated', (ms) => new Date(ms).toISOString()],
		['updated', (ms) => new Date(ms).toISOString()],
		['updatedAt', (ms) => new Date(ms).toISOString()],
		['updatedAt', (ms) => ms],
		['updated', (ms) => String(ms)],
	];
	test.each(shapes)('%s written as %p', async (field, write) => {
		const at = Date.UTC(2024, 0, 1);
		people = [{ id: 1, [field]: write(at) }];
		const trigger = await poller();
		await trigger.activate();
		people.push({ id: 2, [field]: write(at + 1000) });
		people[0] = { id: 1, [field]: write(at + 2000) };
		expect(ids((await trigger.poll()).items).sort()).toEqual([1, 2]);
		expect(await trigger.poll()).toEqual({});
		people[1] = { id: 2, [field]: write(at + 3000) };
		expect(ids((await trigger.poll()).items)).toEqual([2]);
	});

	test('"New" reads createdAt as epoch ms and ignores every update', async () => {
		people = [{ id: 10, createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000 }];
		const trigger = await poller({ event: 'new' });
		await trigger.activate();
		people.push({ id: 11, createdAt: 1_700_000_001_000, updatedAt: 1_700_000_001_000 });
		people[0] = { ...people[0], updatedAt: 1_700_000_009_000 };
		expect(ids((await trigger.poll()).items)).toEqual([11]);
		people[1] = { ...people[1], updatedAt: 1_700_000_009_500 };
		expect(await trigger.poll()).toEqual({});
	});

	test("a service clock years behind n8n's loses nothing (service times compared with service times)", async () => {
		people = [{ id: 'a', updated: '2019-03-01T10:00:00Z' }];
		const trigger = await poller();
		await trigger.activate();
		people.push({ id: 'b', updated: '2019-03-01T10:00:01Z' });
		expect(ids((await trigger.poll()).items)).toEqual(['b']);
	});
});

describe('a misbehaving service', () => {
	test('a 429 in the middle of a poll (past every retry) fails it and keeps the state', async () => {
		people = Array.from({ length: 250 }, (_, i) => ({ id: i, updated: 1_700_000_000_000 + i }));
		const trigger = await poller();
		await trigger.activate();
		const before = JSON.stringify(trigger.saved);
		people.push({ id: 999, updated: 1_700_000_999_000 });
		people[0] = { id: 0, updated: 1_700_000_999_001 };
		// The first page is answered; every later request is 429.
		let first = 0;
		serveList(() => ++first > 1);
		const failed = await trigger.poll();
		expect(failed.error?.message).toMatch(/429|rate|too many/i);
		expect(JSON.stringify(trigger.saved)).toBe(before);
		serveList();
		expect(ids((await trigger.poll()).items).sort()).toEqual([0, 999]);
		expect(await trigger.poll()).toEqual({});
	});

	test('pages that repeat stop the poll with an error, and the state is kept', async () => {
		people = [{ id: 1, updated: 1_700_000_000_000 }];
		const trigger = await poller();
		await trigger.activate();
		const before = JSON.stringify(trigger.saved);
		server.script((_request, res) =>
			sendJson(res, 200, {
				_metadata: { collection: 'people', total: 1000 },
				people: [{ id: 2, updated: 1_700_000_001_000 }],
			}),
		);
		const failed = await trigger.poll();
		expect(failed.error?.message).toMatch(/Paging stopped/);
		expect(JSON.stringify(trigger.saved)).toBe(before);
	});

	test('a time that goes backwards never fires (a stale copy); garbage counts as no time', async () => {
		people = [
			{ id: 1, updated: '2024-05-01T10:00:00Z' },
			{ id: 2, updated: '2024-05-01T10:00:00Z' },
		];
		const trigger = await poller();
		await trigger.activate();
		people[0] = { id: 1, updated: '2024-05-01T09:59:00Z' };
		people[1] = { id: 2, updated: 'not a time' };
		const first = await trigger.poll();
		expect(ids(first.items)).toEqual([2]);
		expect(await trigger.poll()).toEqual({});
		people[1] = { id: 2, updated: '9999-01-01T00:00:00Z' };
		expect(await trigger.poll()).toEqual({});
		// A garbage far-future time did not move the watermark: a real change still fires.
		people.push({ id: 3, updated: '2024-05-01T10:05:00Z' });
		expect(ids((await trigger.poll()).items)).toEqual([3]);
	});

	test('odd records: no ID never fires; no time fires once as new; an ID past 2^53 as text stays exact', async () => {
		people = [{ id: 1, updated: '2024-05-01T10:00:00Z' }];
		const trigger = await poller();
		await trigger.activate();
		people.push(
			{ updated: '2024-05-01T10:01:00Z', firstName: 'no ID' },
			{ id: 'timeless-1', firstName: 'no time' },
			{ id: '12345678901234567891', updated: '2024-05-01T10:02:00Z' },
			{ id: '12345678901234567892', updated: '2024-05-01T10:02:00Z' },
		);
		expect(ids((await trigger.poll()).items)).toEqual([
			'timeless-1',
			'12345678901234567891',
			'12345678901234567892',
		]);
		people[2] = { id: 'timeless-1', firstName: 'changed, but no time says so' };
		expect(await trigger.poll()).toEqual({});
	});

	test('no secret in any output: an error echoing the token is redacted, the items carry none', async () => {
		const trigger = await poller();
		await trigger.activate();
		server.script((request, res) =>
			sendJson(res, 400, { error: `bad token ${String(request.headers.authorization)}` }),
		);
		const failed = await trigger.poll();
		const text = JSON.stringify({
			message: failed.error?.message,
			description: failed.error?.description,
			saved: trigger.saved,
		});
		expect(failed.error).toBeDefined();
		expect(text).not.toContain(TOKEN);
		serveList();
		people = [{ id: 5, updated: '2024-05-01T10:00:00Z' }];
		const { items } = await trigger.poll();
		expect(JSON.stringify(items)).not.toContain(TOKEN);
	});
});

describe('listings that differ from poll to poll', () => {
	test.each(['with a time', 'without a time'])(
		'a record %s that one listing misses (a deletion shifted it out of its page) does not fire again',
		async (kind) => {
			const at = Date.UTC(2024, 0, 1);
			people = Array.from({ length: 150 }, (_, i) =>
				kind === 'with a time' ? { id: `p${i + 1}`, updated: at } : { id: `p${i + 1}` },
			);
			const trigger = await poller();
			await trigger.activate();
			people.splice(100, 0, kind === 'with a time' ? { id: 'x', updated: at + 1 } : { id: 'x' });
			expect(ids((await trigger.poll()).items)).toEqual(['x']);
			// p10 is deleted as page 2 is asked for: x moves to offset 99, which page 1 was read without.
			let deleting = true;
			serveList(undefined, (offset) => {
				if (deleting && offset === 100) people = people.filter((person) => person.id !== 'p10');
				if (offset === 100) deleting = false;
			});
			expect(await trigger.poll()).toEqual({});
			for (let i = 0; i < 3; i++) expect(await trigger.poll()).toEqual({});
			expect(trigger.executions).toHaveLength(1);
		},
	);

	test('answers of 200 with an empty list save nothing: the records are not new afterwards', async () => {
		people = [{ id: 'a', updated: Date.UTC(2024, 0, 1) }, { id: 't1' }];
		const trigger = await poller();
		await trigger.activate();
		const held = people;
		people = [];
		for (let i = 0; i < 5; i++) expect(await trigger.poll()).toEqual({});
		people = held;
		expect(await trigger.poll()).toEqual({});
		expect(trigger.executions).toEqual([]);
	});

	test("a list past the transport's 250,000-record bound is read page by page, and a change fires", async () => {
		const at = Date.UTC(2024, 0, 1);
		people = Array.from({ length: 251_000 }, (_, i) => ({ id: i, updated: at + i }));
		// The service sends 1,000 records a page whatever the limit: the bound is met in 251 requests.
		serveList(undefined, () => 1000);
		const trigger = await poller();
		expect(await trigger.activate()).toEqual({});
		people.push({ id: 'new', updated: at + 251_000 });
		expect(ids((await trigger.poll()).items)).toEqual(['new']);
		expect(Buffer.byteLength(JSON.stringify(trigger.state))).toBeLessThan(100_000);
	}, 180_000);
});

describe('the state follows where the requests go', () => {
	test.each<[string, (origin: string) => Record<string, string>]>([
		['Default Credential ID', () => ({ credentialId: 'cred-2' })],
		['host URL', (origin) => ({ crmUrl: `${origin}/other` })],
	])(
		"editing the credential's %s starts over: its first poll fires nothing",
		async (_field, edit) => {
			people = [{ id: 'a1', updated: Date.UTC(2024, 0, 1) }];
			const other = [{ id: 'b1', updated: Date.UTC(2024, 0, 2) }, { id: 'b2' }];
			const credentials = credentialsFor(server.origin, { accessToken: TOKEN });
			const trigger = await startPoller({ resource: 'person', event: 'newOrUpdated' }, credentials);
			await trigger.activate();
			Object.assign(credentials, edit(server.origin));
			people = other;
			expect(await trigger.poll()).toEqual({});
			expect(trigger.executions).toEqual([]);
		},
	);
});

test('records with a numeric ID past 2^53 are skipped, and the log says so by entity, no value', async () => {
	const warn = jest.spyOn(Container.get(Logger), 'warn').mockImplementation(() => undefined);
	try {
		people = [{ id: 1, updated: Date.UTC(2024, 0, 1) }];
		const trigger = await poller();
		await trigger.activate();
		people.push({ id: 2 ** 53 + 2, updated: Date.UTC(2024, 0, 2) });
		expect(await trigger.poll()).toEqual({});
		const lines = warn.mock.calls.map(([message]) => String(message));
		expect(lines).toEqual([expect.stringMatching(/1 Person records? skipped.*2\^53/)]);
		expect(lines.join()).not.toContain(String(2 ** 53 + 2));
	} finally {
		warn.mockRestore();
	}
});
