/**
 * The lookalike people (lookalikes.ts) over the control endpoint: added after the seeded people as
 * creates would add them, never in the default seed, and shown in each connection's profile.
 */
import { useSandbox } from '../harness/use-sandbox';
import { LOOKALIKES } from './lookalikes';
import type { Sandbox } from './server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), {
	people: 5,
	connections: { 'cred-numeric': { profile: 'numeric' } },
});

async function control(body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
	const res = await fetch(`${sandbox.urls.crm}/__sandbox/people`, {
		method: 'POST',
		body: JSON.stringify(body),
	});
	return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('POST /__sandbox/people', () => {
	it('adds the lookalikes after the seeded people, and a reset takes them away', async () => {
		expect(sandbox.count('people', 'cred-default')).toBe(5);
		const { status, json } = await control({ lookalikes: true });
		expect(status).toBe(200);
		expect(json.ids).toEqual(LOOKALIKES.map((_, i) => `p_${6 + i}`));
		const people = sandbox.people();
		expect(people).toHaveLength(5 + LOOKALIKES.length);
		expect(people[5]).toMatchObject({
			id: 'p_6',
			name: 'Ada Lovelace',
			emails: LOOKALIKES[0].emails,
		});
		expect(people[13]).toMatchObject({ name: 'Mary Jackson', phones: ['(555) 010-0004'] });
		sandbox.reset();
		expect(sandbox.count('people', 'cred-default')).toBe(5);
	});

	it('adds given people to a named connection, in its profile', async () => {
		const { json } = await control({
			credentialId: 'cred-numeric',
			people: [{ firstName: 'Zed', emails: [{ value: 'z@x.test', isPrimary: true }] }],
		});
		expect(json.ids).toEqual([expect.any(Number)]);
		const res = await fetch(`${sandbox.urls.crm}/api/people?offset=5`, {
			headers: {
				authorization: `Bearer ${sandbox.token}`,
				'x-service-credential-id': 'cred-numeric',
			},
		});
		const page = (await res.json()) as { people: Array<Record<string, unknown>> };
		expect(page.people).toEqual([
			expect.objectContaining({
				id: (json.ids as number[])[0],
				emails: [{ value: 'z@x.test', isPrimary: 1 }],
			}),
		]);
	});

	it('refuses a body without people and an unknown connection', async () => {
		expect((await control({})).status).toBe(400);
		expect((await control({ people: [1] })).status).toBe(400);
		expect((await control({ lookalikes: true, credentialId: 'nobody' })).status).toBe(400);
	});
});
