/**
 * Redaction as an invariant: whatever the secret and however a service, a proxy or an error page
 * echoes it (raw, URL-, HTML-, JSON-escaped, base64 or base64url with or without padding, hex, or
 * inside a longer base64 text), the text that reaches an error item holds no form of it. A generator
 * looks for the counter-example; the engine test does the same with the token an attempt actually sent.
 */
import fc from 'fast-check';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { redactAnswer } from '../../nodes/IntegrationService/transport/answerRedaction';
import { shorten } from '../../nodes/IntegrationService/transport/errors';
import { redact, secretForms, withSecret } from '../../nodes/IntegrationService/transport/secrets';
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
const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
/** Percent-encodes (upper-case hex) every character `kept` does not match, as stricter encoders and proxies do. */
const percentEncoded = (secret: string, kept: RegExp) =>
	Array.from(secret, (char) =>
		kept.test(char)
			? char
			: Buffer.from(char, 'utf8').toString('hex').toUpperCase().replace(/../g, '%$&'),
	).join('');
const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** Per-character encoders: JSON `\u` escapes (each UTF-16 unit), HTML numeric entities (code points). */
const hex4 = (char: string) =>
	Array.from({ length: char.length }, (_, i) => char.charCodeAt(i).toString(16).padStart(4, '0'));
const PER_CHAR: Record<string, (char: string) => string> = {
	u: (char) =>
		hex4(char)
			.map((hex) => `\\u${hex}`)
			.join(''),
	U: (char) =>
		hex4(char)
			.map((hex) => `\\u${hex.toUpperCase()}`)
			.join(''),
	entity: (char) => `&#${char.codePointAt(0)};`,
	entityHex: (char) => `&#x${(char.codePointAt(0) ?? 0).toString(16)};`,
	entityHEX: (char) => `&#x${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()};`,
};
/** Each encoder applied to the dots (a JWT's), to every character but letters and digits, to every character. */
const PER_CHAR_ENCODINGS: Record<string, (secret: string) => string> = Object.fromEntries(
	Object.entries(PER_CHAR).flatMap(([name, encode]) => [
		[`${name}Dots`, (secret: string) => secret.replace(/\./g, encode)],
		[
			`${name}AllButAlphanumeric`,
			(secret: string) =>
				Array.from(secret, (c) => (/[A-Za-z0-9]/.test(c) ? c : encode(c))).join(''),
		],
		[`${name}Every`, (secret: string) => Array.from(secret, encode).join('')],
	]),
);
/** JSON writers' escape sets together: PHP's `\/` with `\u0026`; Go's `<>&` (and `=+` by some) as `\u`. */
const jsonEscapeSet = (secret: string, escaped: RegExp, slash: boolean, upper = false) => {
	const json = JSON.stringify(secret)
		.slice(1, -1)
		.replace(escaped, (char) => PER_CHAR[upper ? 'U' : 'u'](char));
	return slash ? json.replace(/\//g, '\\/') : json;
};

/** The ways an echo may write a secret, each named for the counter-example fast-check prints. */
const ENCODINGS: Record<string, (secret: string) => string> = {
	raw: (secret) => secret,
	url: (secret) => encodeURIComponent(secret),
	form: (secret) => encodeURIComponent(secret).replace(/%20/g, '+'),
	urlLowercase: (secret) => lowerHex(encodeURIComponent(secret)),
	urlDots: (secret) => encodeURIComponent(secret).replace(/\./g, '%2E'),
	urlDotsLowercase: (secret) => lowerHex(encodeURIComponent(secret).replace(/\./g, '%2E')),
	urlDotsLowercaseOnly: (secret) => encodeURIComponent(secret).replace(/\./g, '%2e'),
	urlRfc3986: (secret) => percentEncoded(secret, /[A-Za-z0-9\-._~]/),
	urlRfc3986Lowercase: (secret) => lowerHex(percentEncoded(secret, /[A-Za-z0-9\-._~]/)),
	urlAllButAlphanumeric: (secret) => percentEncoded(secret, /[A-Za-z0-9]/),
	urlAllButAlphanumericLowercase: (secret) => lowerHex(percentEncoded(secret, /[A-Za-z0-9]/)),
	html,
	json: (secret) => JSON.stringify(secret).slice(1, -1),
	jsonSlash: (secret) => JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'),
	base64,
	base64NoPadding: (secret) => base64(secret).replace(/=+$/, ''),
	base64url,
	base64urlPadded: (secret) => base64(secret).replace(/\+/g, '-').replace(/\//g, '_'),
	hex: (secret) => Buffer.from(secret, 'utf8').toString('hex'),
	hexUpper: (secret) => Buffer.from(secret, 'utf8').toString('hex').toUpperCase(),
	jsonSlashAmpersand: (secret) => jsonEscapeSet(secret, /&/g, true),
	jsonGo: (secret) => jsonEscapeSet(secret, /[<>&]/g, false),
	jsonGoSlash: (secret) => jsonEscapeSet(secret, /[<>&'=+]/g, true),
	jsonGoSlashUpper: (secret) => jsonEscapeSet(secret, /[<>&'=+]/g, true, true),
	htmlTemplate: (secret) => html(secret).replace(/[/+=]/g, PER_CHAR.entity),
	...PER_CHAR_ENCODINGS,
};

/** Every decoding of a text at every alignment: a secret that survives in an encoded blob shows up here. */
function decodings(text: string): string[] {
	const out = [text];
	for (let start = 0; start < 4; start++) {
		const tail = text.slice(start);
		out.push(Buffer.from(tail.replace(/[^A-Za-z0-9+/]/g, ''), 'base64').toString('latin1'));
		out.push(Buffer.from(tail.replace(/[^A-Za-z0-9_-]/g, ''), 'base64url').toString('latin1'));
	}
	return out;
}

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

	test(`the secret inside a longer text that is then base64- or base64url-encoded (seed ${SEED}, ${RUNS} runs)`, () => {
		fc.assert(
			fc.property(
				secretArbitrary,
				wrapperArbitrary,
				wrapperArbitrary,
				fc.constantFrom(base64, base64url),
				(secret, before, after, encode) => {
					const forms = secretForms({ clientSecret: secret });
					const redacted = redact(encode(`${before}${secret}${after}`), forms);
					const bytes = Buffer.from(secret, 'utf8').toString('latin1');
					for (const decoded of decodings(redacted)) expect(decoded).not.toContain(bytes);
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
					const forms = withSecret(secretForms({ clientSecret: secret }), token);
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

test('any JWT in a message, its dots written as %2E, \\u002e, \\u002E, &#46;, &#x2e; or &#x2E;, is [redacted]', () => {
	const parts = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiJ4In0', 'c2lnbmF0dXJl'];
	for (const dot of ['.', '%2E', '\\u002e', '\\u002E', '&#46;', '&#x2e;', '&#x2E;'])
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
