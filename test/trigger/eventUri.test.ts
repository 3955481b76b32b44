/** nodes/IntegrationServiceTrigger/eventUri.ts: which event uris are read with the token (the wire: trigger.test.ts). */
import fc from 'fast-check';

import { eventUriHost } from '../../nodes/IntegrationServiceTrigger/eventUri';

const PROPERTY = { seed: 47, numRuns: 300 };
const ORIGIN = 'http://127.0.0.1:4000';
const credentials = {
	crmUrl: ORIGIN,
	universalUrl: 'http://127.0.0.1:4001',
	losUrl: 'http://127.0.0.1:4002/base',
	calendarUrl: 'http://127.0.0.1:4003',
};

const plain = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
/** "." or "..", each dot as written, percent-encoded once or twice, in either case. */
const dot = fc.constantFrom('.', '%2e', '%2E', '%252e', '%252E');
const dotSegment = fc.tuple(dot, fc.option(dot, { nil: undefined })).map(([a, b]) => a + (b ?? ''));

describe('eventUriHost', () => {
	test("a path under the host's /api/ is read from that host, also under a base path", () => {
		expect(eventUriHost(credentials, `${ORIGIN}/api/people?ids=p_1`)).toEqual({ host: 'crm' });
		expect(eventUriHost(credentials, 'http://127.0.0.1:4002/base/api/loans/1')).toEqual({
			host: 'los',
		});
		expect(eventUriHost(credentials, 'http://127.0.0.1:4002/api/loans/1')).toEqual({
			refused: expect.stringContaining('its path is not under /base/api/') as string,
		});
	});

	test('property: any path of plain segments under /api/ is accepted; one "." or ".." segment in any encoding is refused', () => {
		fc.assert(
			fc.property(
				fc.array(plain, { minLength: 1, maxLength: 4 }),
				fc.nat(4),
				dotSegment,
				(segments, at, bad) => {
					expect(eventUriHost(credentials, `${ORIGIN}/api/${segments.join('/')}`)).toEqual({
						host: 'crm',
					});
					const withDots = [...segments];
					withDots.splice(Math.min(at, withDots.length), 0, bad);
					const refused = eventUriHost(credentials, `${ORIGIN}/api/${withDots.join('/')}`);
					expect(refused).toEqual({
						refused: expect.stringContaining('segment; it is not read with your token') as string,
					});
				},
			),
			PROPERTY,
		);
	});

	test('property: a path not under /api/ is refused, naming the origin only', () => {
		fc.assert(
			fc.property(plain, fc.array(plain, { maxLength: 3 }), (first, rest) => {
				fc.pre(first !== 'api');
				const uri = `${ORIGIN}/${[first, ...rest].join('/')}`;
				expect(eventUriHost(credentials, uri)).toEqual({
					refused: `The event's uri on ${ORIGIN} is refused: its path is not under /api/; it is not read with your token`,
				});
			}),
			PROPERTY,
		);
	});
});
