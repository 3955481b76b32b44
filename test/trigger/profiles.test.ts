/**
 * The trigger's Fetch Records and deduplication against each sandbox connection profile
 * (test/sandbox/profiles.ts): an event naming a numeric ID or a UUID is read at its uri, the record
 * output as the connected system wrote it (11 stays 11), and a redelivery starts nothing.
 */
import { createHmac } from 'crypto';

import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import type { ProfileName } from '../sandbox/profiles';
import type { Sandbox } from '../sandbox/server';
import { startReceiver } from './receiver';

const SECRET = 'whsec-profile-secret';
let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), {
	people: 3,
	connections: { 'cred-numeric': { profile: 'numeric' }, 'cred-uuid': { profile: 'uuid' } },
});

const CONNECTION: Record<ProfileName, string> = {
	default: 'cred-default',
	numeric: 'cred-numeric',
	uuid: 'cred-uuid',
};

test.each(['default', 'numeric', 'uuid'] as const)(
	'the %s profile: the record at the uri as written, once per eventId',
	async (profile) => {
		const connection = CONNECTION[profile];
		const id = sandbox.shownId(connection, 'p_2');
		const trigger = await startReceiver(
			{ events: ['peopleCreated'], fetchRecords: true },
			sandboxCredentials(sandbox, { signingSecret: SECRET, credentialId: connection }),
		);
		try {
			const body = JSON.stringify({
				eventId: `evt-${profile}`,
				eventCreated: '2026-11-22T10:00:00Z',
				event: 'peopleCreated',
				resourceIds: [id],
				uri: `${sandbox.urls.crm}/api/people?ids=${encodeURIComponent(String(id))}`,
			});
			const headers = {
				'Content-Type': 'application/json',
				'X-Service-Signature': createHmac('sha256', SECRET)
					.update(Buffer.from(body).toString('base64'))
					.digest('hex'),
			};
			const first = await trigger.deliver(body, headers);
			expect(first.status).toBe(200);
			const record = sandbox.shown(connection, sandbox.people(connection)[1]);
			expect(first.workflowData).toEqual([[{ json: record }]]);
			expect(first.workflowData?.[0][0].json.id).toBe(id);
			expect(sandbox.requests.map((request) => request.headers['x-service-credential-id'])).toEqual(
				[connection],
			);
			const again = await trigger.deliver(body, headers);
			expect(again.workflowData).toBeUndefined();
			expect(again.body).toMatchObject({ started: false, reason: 'duplicate eventId' });
			expect(sandbox.requests).toHaveLength(1);
		} finally {
			await trigger.close();
		}
	},
);
