/**
 * Redaction as an invariant: whatever the secret, when a service, a proxy or an error page echoes it
 * in a form an echo writes (raw, URL- or form-encoded, HTML- or JSON-escaped, base64 or base64url with
 * or without padding), the text that reaches an error item or an output holds no such form of it. A
 * generator looks for the counter-example; the engine test does the same with the token an attempt
 * actually sent.
 */
import fc from 'fast-check';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { shorten } from '../../nodes/IntegrationService/transport/errors';
import {
	redact,
	redactAnswer,
	secretForms,
	withSecrets,
} from '../../nodes/IntegrationService/transport/secrets';
import { runNode } from '../harness/engine';
import { VALID } from '../reliability/helpers';
import { sendJson, startHostile, type HostileServer } from './server';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
const SEED = Number(process.env.PROPERTY_SEED ?? 18);

const html = (text: string) =>
	text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** The ways an echo may write a secret, each named for the counter-example fast-check prints. */
const ENCODINGS: Record<string, (secret: string) => string> = {
	raw: (secret) => secret,
	url: (secret) => encodeURIComponent(secret),
	form: (secret) => encodeURIComponent(secret).replace(/%20/g, '+'),
	formParams: (secret) => new URLSearchParams({ s: secret }).toString().slice(2),
	html,
	htmlHexApostrophe: (secret) => html(secret).replace(/&#39;/g, '&#x27;'),
	json: (secret) => JSON.stringify(secret).slice(1, -1),
	jsonSlash: (secret) => JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'),
	base64,
	base64NoPadding: (secret) => base64(secret).replace(/=+$/, ''),
	base64url,
	base64urlPadded: (secret) => base64(secret).replace(/\+/g, '-').replace(/\//g, '_'),
};

const secretArbitrary = fc
	.fullUnicodeString({ minLength: 8, maxLength: 64 })
	.filter((secret) => secret.trim().length >= 8);
const wrapperArbitrary = fc.string({ maxLength: 40 });

describe('no encoding of a secret survives redaction (property)', () => {
	test(`an echo in any of ${Object.keys(ENCODINGS).length} encodings, inside any text (seed ${SEED}, ${RUNS} runs)`, () => {
		fc.assert(
			fc.property(
				secretArbitrary,
				fc.constantFrom(...Object.keys(ENCODINGS)),
				wrapperArbitrary,
				wrapperArbitrary,
				(secret, encoding, before, after) => {
					const forms = secretForms({ accessToken: secret });
					const echoed = `${before}${ENCODINGS[encoding](secret)}${after}`;
					const redacted = redact(echoed, forms);
					for (const encode of Object.values(ENCODINGS))
						expect(redacted).not.toContain(encode(secret));
					// What an error item shows is redacted first, then shortened: a cut never leaves a form behind.
					expect(shorten(echoed, forms)).not.toContain(secret.trim());
				},
			),
			{ seed: SEED, numRuns: RUNS },
		);
	});

	test("a token added for one attempt is redacted with the credential's own secrets, and the cut comes after", () => {
		fc.assert(
			fc.property(
				secretArbitrary,
				secretArbitrary,
				fc.constantFrom(...Object.keys(ENCODINGS)),
				(secret, token, encoding) => {
					const forms = withSecrets(secretForms({ clientSecret: secret }), [token]);
					const text = `x${ENCODINGS[encoding](token)}y${ENCODINGS[encoding](secret)}z`.repeat(20);
					const shortened = shorten(text, forms);
					for (const value of [secret, token])
						expect(shortened).not.toContain(ENCODINGS[encoding](value));
				},
			),
			{ seed: SEED, numRuns: RUNS },
		);
	});
});

/** How services write JSON: as JSON.stringify does, with every `/` as `\/` (PHP), every non-ASCII character as `\uXXXX` (Python). */
const JSON_WRITERS: Record<string, (value: unknown) => string> = {
	plain: (value) => JSON.stringify(value),
	slashes: (value) => JSON.stringify(value).replace(/\//g, '\\/'),
	asciiOnly: (value) =>
		JSON.stringify(value).replace(
			/[\u0080-\uffff]/g,
			(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
		),
};

/** Every string in a value, keys included. */
function stringsOf(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(stringsOf);
	if (value && typeof value === 'object')
		return Object.entries(value).flatMap(([key, entry]) => [key, ...stringsOf(entry)]);
	return [];
}

test('any JWT in a message, its dots written as %2E or %2e, is [redacted]', () => {
	const parts = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiJ4In0', 'c2lnbmF0dXJl'];
	for (const dot of ['.', '%2E', '%2e'])
		expect(redact(`bad ${parts.join(dot)} end`, [])).toBe('bad [redacted] end');
});

describe('no encoding of a secret survives in a successful answer (property)', () => {
	test(`any secret echoed in any of ${Object.keys(ENCODINGS).length} encodings, as a value or a key, written by any JSON writer (seed ${SEED}, ${RUNS} runs)`, () => {
		fc.assert(
			fc.property(
				secretArbitrary,
				fc.constantFrom(...Object.keys(ENCODINGS)),
				fc.constantFrom(...Object.keys(JSON_WRITERS)),
				fc.boolean(),
				wrapperArbitrary,
				(secret, encoding, writer, asKey, around) => {
					const forms = secretForms({ accessToken: secret });
					const echoed = `${around}${ENCODINGS[encoding](secret)}${around}`;
					const text = JSON_WRITERS[writer]({
						id: 'r-1',
						nested: [asKey ? { [echoed]: 1 } : { echo: echoed }],
					});
					const output = redactAnswer(JSON.parse(text) as unknown, text, forms);
					for (const value of stringsOf(output))
						for (const encode of Object.values(ENCODINGS))
							expect(value).not.toContain(encode(secret));
				},
			),
			{ seed: SEED, numRuns: RUNS },
		);
	});

	test('an answer without a secret is returned as it is, the same object', () => {
		const forms = secretForms({ accessToken: 'token-123456' });
		const text = '{"id":"p_1","name":"M\\u00fcller","jwt":"eyJhbGciOiJIUzI1NiJ9.e30.c2ln"}';
		const value = JSON.parse(text) as unknown;
		expect(redactAnswer(value, text, forms)).toBe(value);
	});
});

describe('the token an attempt actually sent, echoed back encoded', () => {
	const CLIENT_SECRET = 'cl1ent/Secret+=&<y>"\'-mnopqrstuv';
	let service: HostileServer;
	beforeAll(async () => {
		service = await startHostile();
	});
	afterAll(async () => await service.close());

	// One encoding per run: the error shows the service's words shortened to 300 characters.
	test.each(Object.keys(ENCODINGS))(
		'Client ID and Secret mode: a 500 echoing the signed JWT and the client secret as %s leaves neither in the error',
		async (encoding) => {
			const sent: string[] = [];
			service.script((request, res) => {
				const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
				sent.push(token);
				const encode = ENCODINGS[encoding];
				sendJson(res, 500, { error: `echo ${encode(token)} and ${encode(CLIENT_SECRET)}` });
			});
			const origin = service.origin;
			const credentials: ICredentialDataDecryptedObject = {
				crmUrl: origin,
				universalUrl: origin,
				losUrl: origin,
				calendarUrl: origin,
				credentialId: 'cred-1',
				authentication: 'clientCredentials',
				clientId: 'client-1',
				clientSecret: CLIENT_SECRET,
				userId: 'tenant-1',
			};
			const result = await runNode({
				parameters: {
					...VALID['person.getAll'],
					requestOptions: {
						maxAttempts: 2,
						initialRetryDelay: 10,
						maxTotalWait: 10,
						// No Timeout is under test: out of the test's reach (a 2 s one cut an attempt short under load).
						timeout: 600,
						maxRequestsPerSecond: 0,
					},
				},
				credentials,
				onError: 'continueRegularOutput',
			});
			expect(sent).toHaveLength(2);
			const output = JSON.stringify(result.items.map((item) => item.json as IDataObject));
			expect(output).toContain(
				'The service had an internal error (HTTP 500): echo [redacted] and [redacted]',
			);
			for (const value of [...new Set(sent), CLIENT_SECRET]) {
				for (const encode of Object.values(ENCODINGS)) expect(output).not.toContain(encode(value));
			}
		},
	);
});
