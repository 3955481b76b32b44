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
	test('a uri on a host is read from that host as given, under its /api/ or not (shared spec: a full URL without /api), also under a base path', () => {
		expect(eventUriHost(credentials, `${ORIGIN}/api/people?ids=p_1`)).toEqual({ host: 'crm' });
		expect(eventUriHost(credentials, `${ORIGIN}/people?ids=a,b`)).toEqual({ host: 'crm' });
		expect(eventUriHost(credentials, 'http://127.0.0.1:4001/credentials/c_1')).toEqual({
			host: 'universal',
		});
		expect(eventUriHost(credentials, 'http://127.0.0.1:4002/base/api/loans/1')).toEqual({
			host: 'los',
		});
		expect(eventUriHost(credentials, 'http://127.0.0.1:4002/base/borrowers?ids=b_1')).toEqual({
			host: 'los',
		});
		expect(eventUriHost(credentials, 'http://127.0.0.1:4003/calendars')).toEqual({
			host: 'calendar',
		});
	});

	test("a uri on the host's origin outside its base path is refused, naming the base path", () => {
		for (const uri of ['http://127.0.0.1:4002/api/loans/1', 'http://127.0.0.1:4002/basement/x'])
			expect(eventUriHost(credentials, uri)).toEqual({
				refused:
					"The event's uri on http://127.0.0.1:4002 is refused: its path is not under /base/; it is not read with your token",
			});
	});

	test('a uri on another origin (port, scheme, host name, user name) is refused, naming its origin only', () => {
		for (const [uri, origin] of [
			['http://127.0.0.1:4009/people?ids=a', 'http://127.0.0.1:4009'],
			['https://127.0.0.1:4000/people', 'https://127.0.0.1:4000'],
			['http://localhost:4000/api/people', 'http://localhost:4000'],
			['http://127.0.0.1:4000@127.0.0.1:4009/people', 'http://127.0.0.1:4009'],
		])
			expect(eventUriHost(credentials, uri)).toEqual({
				refused: `The event's uri is on ${origin}, which is none of the credential's hosts; it is not read with your token`,
			});
	});

	test('property: any path of plain segments, under /api/ or not, is accepted; one "." or ".." segment in any encoding is refused', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('/api/', '/'),
				fc.array(plain, { minLength: 1, maxLength: 4 }),
				fc.nat(4),
				dotSegment,
				(prefix, segments, at, bad) => {
					expect(eventUriHost(credentials, `${ORIGIN}${prefix}${segments.join('/')}`)).toEqual({
						host: 'crm',
					});
					const withDots = [...segments];
					withDots.splice(Math.min(at, withDots.length), 0, bad);
					const refused = eventUriHost(credentials, `${ORIGIN}${prefix}${withDots.join('/')}`);
					expect(refused).toEqual({
						refused: expect.stringContaining('segment; it is not read with your token') as string,
					});
				},
			),
			PROPERTY,
		);
	});

	test('property: on a host with a base path, a path under it is accepted and one beside it refused, naming the origin and the base path only', () => {
		const LOS = 'http://127.0.0.1:4002';
		fc.assert(
			fc.property(plain, fc.array(plain, { maxLength: 3 }), (first, rest) => {
				expect(eventUriHost(credentials, `${LOS}/base/${[first, ...rest].join('/')}`)).toEqual({
					host: 'los',
				});
				fc.pre(first !== 'base');
				expect(eventUriHost(credentials, `${LOS}/${[first, ...rest].join('/')}`)).toEqual({
					refused: `The event's uri on ${LOS} is refused: its path is not under /base/; it is not read with your token`,
				});
			}),
			PROPERTY,
		);
	});
});
