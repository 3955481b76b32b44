/**
 * The people index (nodes/IntegrationService/search/peopleIndex.ts) over a scripted list, no HTTP:
 * the early stop, one scan shared by items side by side, a failed page resumed by the next item, and
 * what creates, updates and deletes of the run do to it. Over real HTTP: test/engine/people-index.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PeoplePages } from '../../nodes/IntegrationService/search/peopleIndex';
import {
	ListChanged,
	PeopleIndex,
	peopleIndexOf,
} from '../../nodes/IntegrationService/search/peopleIndex';
import type { Connection } from '../../nodes/IntegrationService/transport';
import {
	CREDENTIAL_DEFAULT,
	DEFAULT_SETTINGS,
	newRun,
	startItem,
} from '../../nodes/IntegrationService/transport';
import type { PersonId } from '../../nodes/IntegrationService/search/matchKeys';
import { emailKey, personKeys, phoneKey } from '../../nodes/IntegrationService/search/matchKeys';
import { decideUpsert } from '../../nodes/IntegrationService/search/upsert';

const person = (id: PersonId, email?: string, phone?: string): IDataObject => ({
	id,
	emails: email === undefined ? [] : [{ value: email }],
	phones: phone === undefined ? [] : [{ value: phone }],
});

/** A list of people read `size` at a time; counts the reads, and can hold or fail one. */
function list(people: IDataObject[], size = 2) {
	const calls: string[] = [];
	let gate: Promise<void> | undefined;
	let failNext = false;
	const read: PeoplePages = async (cursor) => {
		calls.push(cursor);
		await gate;
		if (failNext) {
			failNext = false;
			throw new Error('page refused');
		}
		const at = cursor === '' ? 0 : Number(cursor);
		const next = at + size;
		return {
			people: people.slice(at, next),
			nextCursor: next < people.length ? String(next) : undefined,
		};
	};
	return {
		read,
		calls,
		hold() {
			let open = () => {};
			gate = new Promise((resolve) => (open = resolve));
			return () => {
				gate = undefined;
				open();
			};
		},
		failOnce: () => (failNext = true),
	};
}

const email = (value: string) => [emailKey(value) as string];

describe('PeopleIndex', () => {
	const people = [
		person('p_1', 'ada@x.test', '555-010-0001'),
		person('p_2', 'bob@x.test'),
		person(3, 'ADA@x.test '),
		person('p_4', 'cy@x.test'),
		person('p_5', 'ada@x.test'),
	];

	it('reads the whole list once, and later finds look in what was read', async () => {
		const pages = list(people);
		const index = new PeopleIndex();
		expect(await index.find(pages.read, 'email', email('Ada@X.test'))).toEqual(['p_1', 3, 'p_5']);
		expect(await index.find(pages.read, 'email', email('cy@x.test'))).toEqual(['p_4']);
		expect(await index.find(pages.read, 'email', email('nobody@x.test'))).toEqual([]);
		expect(pages.calls).toEqual(['', '2', '4']);
	});

	it('stops once it has enough matches, and goes on from there when a later find needs more', async () => {
		const pages = list(people);
		const index = new PeopleIndex();
		expect(await index.find(pages.read, 'email', email('ada@x.test'), 1)).toEqual(['p_1']);
		expect(pages.calls).toEqual(['']);
		expect(await index.find(pages.read, 'email', email('ada@x.test'), 2)).toEqual(['p_1', 3]);
		expect(pages.calls).toEqual(['', '2']);
		expect(await index.find(pages.read, 'email', email('ada@x.test'))).toEqual(['p_1', 3, 'p_5']);
		expect(pages.calls).toEqual(['', '2', '4']);
	});

	it('reads nothing for a row with no key', async () => {
		const pages = list(people);
		expect(await new PeopleIndex().find(pages.read, 'phone', [])).toEqual([]);
		expect(pages.calls).toEqual([]);
	});

	it('items side by side share one scan: each page is read once', async () => {
		const pages = list(people, 1);
		const index = new PeopleIndex();
		const open = pages.hold();
		const finds = [
			index.find(pages.read, 'email', email('cy@x.test')),
			index.find(pages.read, 'email', email('ada@x.test')),
			index.find(pages.read, 'phone', [phoneKey('+1 555 010 0001') as string]),
		];
		await Promise.resolve();
		open();
		expect(await Promise.all(finds)).toEqual([['p_4'], ['p_1', 3, 'p_5'], ['p_1']]);
		expect(pages.calls).toEqual(['', '1', '2', '3', '4']);
	});

	it('a failed page fails the item that read it; the next item reads it again and goes on', async () => {
		const pages = list(people);
		const index = new PeopleIndex();
		pages.failOnce();
		const first = index.find(pages.read, 'email', email('cy@x.test'));
		const second = index.find(pages.read, 'email', email('cy@x.test'));
		await expect(first).rejects.toThrow('page refused');
		expect(await second).toEqual(['p_4']);
		expect(pages.calls).toEqual(['', '', '2', '4']);
	});

	it('a total that changes between pages: read again from the start once; a second change fails every item that needs it', async () => {
		const totals = [5, 4, 4, 4, 4];
		const calls: string[] = [];
		const read: PeoplePages = async (cursor) => {
			calls.push(cursor);
			const at = cursor === '' ? 0 : Number(cursor);
			const next = at + 2 < people.length ? String(at + 2) : undefined;
			return { people: people.slice(at, at + 2), nextCursor: next, total: totals.shift() };
		};
		const index = new PeopleIndex();
		expect(await index.find(read, 'email', email('cy@x.test'))).toEqual(['p_4']);
		expect(calls).toEqual(['', '2', '', '2', '4']);
		const again = new PeopleIndex();
		totals.push(5, 4, 4, 3);
		calls.length = 0;
		const finds = [1, 2].map(() => again.find(read, 'email', email('ada@x.test')));
		for (const found of finds)
			await expect(found).rejects.toThrow(
				'The people list changed while it was being read (4 people, then 3), so a person may have been missed; nothing was created or changed: run again',
			);
		await expect(again.find(read, 'email', email('cy@x.test'))).rejects.toThrow(ListChanged);
		expect(await again.find(read, 'phone', [])).toEqual([]);
		expect(calls).toEqual(['', '2', '', '2']);
	});

	it('what the run wrote outranks what the scan read: new keys found, old keys not', async () => {
		const pages = list(people);
		const index = new PeopleIndex();
		await index.find(pages.read, 'email', email('ada@x.test'));
		index.remember('p_1', personKeys(person('p_1', 'ada.new@x.test')));
		expect(index.lookup('email', email('ada@x.test'))).toEqual([3, 'p_5']);
		expect(index.lookup('email', email('ada.new@x.test'))).toEqual(['p_1']);
	});

	it('a person written before the scan reaches it keeps the keys the run gave it', async () => {
		const pages = list(people);
		const index = new PeopleIndex();
		index.remember('p_5', personKeys(person('p_5', 'eve@x.test')));
		expect(await index.find(pages.read, 'email', email('ada@x.test'))).toEqual(['p_1', 3]);
		expect(index.lookup('email', email('eve@x.test'))).toEqual(['p_5']);
	});

	it('thousands sharing one key are added in linear time and found once each', async () => {
		const many = Array.from({ length: 20_000 }, (_, i) => person(i, 'noemail@x.test'));
		const pages = list([...many, ...many], 100);
		const index = new PeopleIndex();
		const found = await index.find(pages.read, 'email', email('noemail@x.test'));
		expect(found).toHaveLength(20_000);
	});

	it('two rows with one new email, side by side, make one person and then update it', async () => {
		const pages = list(people);
		const index = new PeopleIndex();
		const sent: string[] = [];
		let created = 0;
		const upsert = (row: { email: string; phone?: string }) => {
			const keys = {
				email: email(row.email),
				phone: row.phone ? [phoneKey(row.phone) as string] : [],
			};
			const claims = [
				...keys.email.map((k) => `email:${k}`),
				...keys.phone.map((k) => `phone:${k}`),
			];
			return index.exclusive(claims, async () => {
				const steps = [];
				for (const kind of ['email', 'phone'] as const)
					steps.push({
						kind,
						keys: keys[kind],
						ids: await index.find(pages.read, kind, keys[kind]),
					});
				const decision = decideUpsert(steps);
				if (decision.action === 'create') {
					await Promise.resolve();
					const id = `new_${++created}`;
					sent.push(`POST ${id}`);
					index.remember(id, personKeys(person(id, row.email, row.phone)));
				} else if (decision.action === 'update') sent.push(`PUT ${decision.id}`);
				else sent.push(decision.action);
			});
		};
		await Promise.all([
			upsert({ email: 'dee@x.test' }),
			upsert({ email: ' DEE@x.test' }),
			upsert({ email: 'other@x.test', phone: '555 010 0001' }),
			upsert({ email: 'ada@x.test' }),
		]);
		expect(sent.sort()).toEqual(['POST new_1', 'PUT new_1', 'PUT p_1', 'ambiguous'].sort());
		expect(pages.calls).toEqual(['', '2', '4']);
	});

	it("one index per run and connection: every item's view of the run shares it, another run has its own", () => {
		const run = newRun({ ...DEFAULT_SETTINGS, maxItemMs: 1000 });
		const other = { credentialId: 'cred-other' } as Connection;
		const index = peopleIndexOf(run, CREDENTIAL_DEFAULT);
		expect(startItem(run)).not.toBe(run);
		expect(peopleIndexOf(startItem(run), CREDENTIAL_DEFAULT)).toBe(index);
		expect(peopleIndexOf(startItem(run), { credentialId: '' } as Connection)).toBe(index);
		expect(peopleIndexOf(run, other)).not.toBe(index);
		expect(peopleIndexOf(run, { credentialId: ' cred-other ' } as Connection)).toBe(
			peopleIndexOf(run, other),
		);
		expect(peopleIndexOf(newRun(), CREDENTIAL_DEFAULT)).not.toBe(index);
	});
});
