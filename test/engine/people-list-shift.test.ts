/**
 * Create or Update while others write to the people list, in n8n's real engine against a scripted
 * CRM that pages by offsets: a deletion on a page already read moves a later person onto it, where the
 * scan would never see it. The list's total changing between pages makes the scan read the list again
 * from its start, once; a list that changes again fails the item with nothing created.
 */
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import type { Received } from '../hostile/server';
import { credentialsFor, sendJson, useHostile } from '../hostile/server';

const service = useHostile();

const person = (n: number) => ({
	id: `q${n}`,
	firstName: 'N',
	emails: [{ value: `n${n}@x.test` }],
});

/**
 * A CRM of 150 people in pages of 100; `onList` runs before a page is answered (to change the list).
 * With `byCursor` it pages by its own `next` cursor (a position that deletions do not move).
 */
function crm(onList: (offset: number, people: IDataObject[]) => void, byCursor = false) {
	const people: IDataObject[] = Array.from({ length: 150 }, (_, n) => person(n));
	service.script((request, res) => {
		const url = new URL(request.url, service.origin);
		if (request.method === 'GET' && url.pathname === '/api/people') {
			const offset = Number(url.searchParams.get(byCursor ? 'next' : 'offset') ?? 0);
			const limit = Number(url.searchParams.get('limit') ?? 100);
			onList(offset, people);
			const page = people.slice(offset, offset + limit);
			const _metadata = { collection: 'people', offset, limit, total: people.length };
			if (byCursor && offset + limit < people.length)
				Object.assign(_metadata, { next: String(offset + limit) });
			return sendJson(res, 200, { _metadata, people: page });
		}
		const body = JSON.parse(request.body || '{}') as IDataObject;
		if (request.method === 'POST') return sendJson(res, 201, { id: 'created', ...body });
		return sendJson(res, 200, { id: url.pathname.split('/').pop(), ...body });
	});
}

async function upsert(email: string) {
	return await runNode({
		parameters: {
			resource: 'person',
			operation: 'upsert',
			firstName: 'Row',
			additionalFields: { emailsJson: JSON.stringify([{ value: email }]) },
		},
		credentials: credentialsFor(service.origin),
		onError: 'continueRegularOutput',
	});
}

const wire = (received: Received[]) =>
	received.map((r) => `${r.method} ${r.url.replace(/\?.*(?:offset|next)=(\d+).*/, '@$1')}`);

describe('a people list that changes during the scan', () => {
	test('a person moved onto a page already read is found by reading the list again: updated, not created twice', async () => {
		let deleted = false;
		crm((offset, people) => {
			if (offset === 100 && !deleted) {
				deleted = true;
				people.splice(0, 1);
			}
		});
		const result = await upsert('n100@x.test');
		expect(result.items.map((item) => item.json.error)).toEqual([undefined]);
		expect(wire(service.received)).toEqual([
			'GET /api/people@0',
			'GET /api/people@100',
			'GET /api/people@0',
			'GET /api/people@100',
			'PUT /api/people/q100',
		]);
		expect(result.items[0].json).toMatchObject({ id: 'q100', isNew: false });
	});

	test('a list that changes again while it is read again fails the item, and nothing is created', async () => {
		crm((offset, people) => {
			if (offset === 100) people.splice(0, 1);
		});
		const result = await upsert('n120@x.test');
		expect(wire(service.received)).toEqual([
			'GET /api/people@0',
			'GET /api/people@100',
			'GET /api/people@0',
			'GET /api/people@100',
		]);
		expect(result.items[0].json.error).toBe(
			'The people list changed while it was being read (149 people, then 148), so a person may have been missed; nothing was created or changed: run again (item 0)',
		);
	});

	test("a list paged by the service's own cursor does not shift: a changed total is read on", async () => {
		crm((offset, people) => {
			if (offset === 100) people.splice(0, 1);
		}, true);
		const result = await upsert('n149@x.test');
		expect(wire(service.received)).toEqual([
			'GET /api/people@0',
			'GET /api/people@100',
			'PUT /api/people/q149',
		]);
		expect(result.items[0].json.id).toBe('q149');
	});

	test('a list that does not change is read once', async () => {
		crm(() => undefined);
		const result = await upsert('n149@x.test');
		expect(wire(service.received)).toEqual([
			'GET /api/people@0',
			'GET /api/people@100',
			'PUT /api/people/q149',
		]);
		expect(result.items[0].json.id).toBe('q149');
	});
});
