/**
 * transport/repeats.ts: as a tool, the same create within two minutes is not sent again, and its entry
 * is never forgotten while the create is in flight, however many other creates fill the map past its
 * bound of 1,000 (issue 39, attack finding B). Driven through serviceRequest against a fake context
 * that holds one create unanswered until released.
 */
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import {
	CREDENTIAL_DEFAULT,
	DEFAULT_SETTINGS,
	newRun,
	serviceRequest,
} from '../../nodes/IntegrationService/transport';
import { fakeServiceContext } from './fakes';

/** Answers every create at once, except the first one named `held`: that one waits for `release`. */
function holdingOne(held = 'held') {
	const fake = fakeServiceContext((request) => ({ id: `p_${String(request.body)}` }));
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	const answer = fake.ctx.helpers.httpRequestWithAuthentication;
	const helpers = {
		httpRequestWithAuthentication: async (type: string, options: IHttpRequestOptions) => {
			const answered = await answer.call(fake.ctx, type, options);
			if (String(options.body).includes(`"${held}"`) && sentOf(held).length === 1) await released;
			return answered;
		},
	};
	const ctx = { ...fake.ctx, helpers } as unknown as IExecuteFunctions;
	const sentOf = (firstName: string) =>
		fake.sent.filter((request) => JSON.parse(String(request.body)).firstName === firstName);
	return { ctx, sent: fake.sent, sentOf, release };
}

const run = newRun({ ...DEFAULT_SETTINGS, maxRequestsPerSecond: 0 }, true);

async function create(ctx: IExecuteFunctions, firstName: string) {
	return await serviceRequest
		.call(
			ctx,
			0,
			{
				method: 'POST',
				host: 'crm',
				connection: CREDENTIAL_DEFAULT,
				path: ['people'],
				body: { firstName },
				creates: 'person',
			},
			run,
		)
		.catch((error: Error) => error);
}

test('a create in flight is not forgotten when 1,001 other creates fill the map: its repeat is not sent; the oldest settled ones are', async () => {
	const service = holdingOne();
	const first = create(service.ctx, 'held');
	while (service.sentOf('held').length === 0) await new Promise((resolve) => setImmediate(resolve));

	for (let i = 0; i <= 1000; i++) await create(service.ctx, `other-${i}`);
	const again = await create(service.ctx, 'held');

	expect(again).toBeInstanceOf(Error);
	expect((again as Error).message).toMatch(
		/^Not sent again: the same create of a person \(same arguments, connection and operation\) was sent [\d.]+ s ago and has not been answered yet$/,
	);
	expect(service.sentOf('held')).toHaveLength(1);
	service.release();
	expect(await first).toEqual({ id: 'p_{"firstName":"held"}' });
	// Still bounded: the oldest settled create was forgotten and is sent again; the newest is not.
	await create(service.ctx, 'other-0');
	await create(service.ctx, 'other-1000');
	expect(service.sentOf('other-0')).toHaveLength(2);
	expect(service.sentOf('other-1000')).toHaveLength(1);
	expect(service.sent).toHaveLength(1 + 1001 + 1);
});

test('an answered create is forgotten by when it was answered, not sent: 600 answered since, its repeat gets its answer', async () => {
	const service = holdingOne('held-late');
	const first = create(service.ctx, 'held-late');
	while (service.sentOf('held-late').length === 0)
		await new Promise((resolve) => setImmediate(resolve));

	for (let i = 0; i < 500; i++) await create(service.ctx, `before-${i}`);
	service.release();
	await first;
	for (let i = 0; i < 600; i++) await create(service.ctx, `after-${i}`);
	const again = await create(service.ctx, 'held-late');

	expect(again).toEqual({ id: 'p_{"firstName":"held-late"}' });
	expect(service.sentOf('held-late')).toHaveLength(1);
	// The bound holds: of the 1,101 settled, the oldest answered ones went first.
	await create(service.ctx, 'before-0');
	expect(service.sentOf('before-0')).toHaveLength(2);
});
