/**
 * Redaction (nodes/IntegrationService/transport/secrets.ts and answerRedaction.ts), called directly:
 * every encoded form of a secret leaves an error's words as `[redacted]`, and a successful answer's
 * raw text is searched for them as the per-form check did. Before, errors.test.ts and
 * answerRedaction.test.ts each held half of this. The engine's attacks on the same rule, over real
 * HTTP, are test/hostile/redaction.test.ts (errors) and output-redaction.test.ts (outputs).
 */
import { createHmac } from 'crypto';
import fc from 'fast-check';
import { NodeOperationError } from 'n8n-workflow';

import { withoutSecrets } from '../../nodes/IntegrationService/transport/cursor';
import {
	redact,
	redactAnswer,
	redactError,
	secretForms,
	withSecrets,
} from '../../nodes/IntegrationService/transport/secrets';

const PROPERTY = { seed: 19, numRuns: 200 };
const R = '[redacted]';
const NO_FORMS: readonly string[] = [];

describe('redaction', () => {
	/** A secret with every character an encoding treats specially. */
	const SECRET = `S3cr3t/Tok+en=&<x>"q'\\ é.J-w_t~!*()`;
	const forms = secretForms({ accessToken: SECRET });
	const json = JSON.stringify(SECRET).slice(1, -1);
	const bytes = Buffer.from(SECRET, 'utf8');

	it.each([
		['raw', SECRET],
		['URL-encoded', encodeURIComponent(SECRET)],
		['URL-encoded, space as +', encodeURIComponent(SECRET).replace(/%20/g, '+')],
		[
			'HTML-escaped',
			SECRET.replace(/&/g, '&amp;')
				.replace(/</g, '&lt;')
				.replace(/>/g, '&gt;')
				.replace(/"/g, '&quot;')
				.replace(/'/g, '&#39;'),
		],
		[
			'HTML-escaped, &#x27;',
			SECRET.replace(/&/g, '&amp;')
				.replace(/</g, '&lt;')
				.replace(/>/g, '&gt;')
				.replace(/"/g, '&quot;')
				.replace(/'/g, '&#x27;'),
		],
		['JSON-escaped', json],
		['JSON-escaped, \\/', json.replace(/\//g, '\\/')],
		['base64', bytes.toString('base64')],
		['base64 without padding', bytes.toString('base64').replace(/=+$/, '')],
		['base64url', bytes.toString('base64url')],
		['form-encoded (URLSearchParams)', new URLSearchParams({ s: SECRET }).toString().slice(2)],
	])('replaces the %s form', (_form, encoded) => {
		expect(redact(`before ${encoded} after`, forms)).toBe(`before ${R} after`);
	});

	it('redacts bearer tokens and JWTs it does not know', () => {
		expect(redact('Authorization: Bearer abc.DEF-123_~+/=', NO_FORMS)).toBe(
			`Authorization: Bearer ${R}`,
		);
		expect(redact('authorization=bearer%20xyz789&next=1', NO_FORMS)).toBe(
			`authorization=bearer ${R}&next=1`,
		);
		expect(redact('got eyJhbGciOiJIUzUxMiJ9.eyJzdWIiOiJ0In0.c2lnbmF0dXJl_- back', NO_FORMS)).toBe(
			`got ${R} back`,
		);
		// Its dots percent-encoded by a proxy, in either case.
		expect(redact('got eyJhbGciOiJIUzUxMiJ9%2EeyJzdWIiOiJ0In0%2ec2ln_- back', NO_FORMS)).toBe(
			`got ${R} back`,
		);
		expect(redact('nothing secret here', NO_FORMS)).toBe('nothing secret here');
	});

	it('secretForms: the secret fields, raw and trimmed, longest first', () => {
		const creds = {
			accessToken: '  padded-token  ',
			clientSecret: 'client-secret-1',
			signingSecret: 'signing-1',
			sessionToken: 'session-1',
			clientId: 'client-id-visible',
			crmUrl: 'https://crm.test',
		};
		const all = secretForms(creds);
		for (const secret of [
			'  padded-token  ',
			'padded-token',
			'client-secret-1',
			'signing-1',
			'session-1',
		])
			expect(all).toContain(secret);
		expect(all).not.toContain('client-id-visible');
		expect(all).not.toContain('https://crm.test');
		const lengths = all.map((form) => form.length);
		expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
		expect(redact('padded-token / client-id-visible', all)).toBe(`${R} / client-id-visible`);
	});

	it('secretForms: values shorter than 4 characters are not secrets (they would blank out words)', () => {
		expect(secretForms({ accessToken: 'abc' })).toEqual([]);
		expect(redact('abc', secretForms({ accessToken: 'abc' }))).toBe('abc');
	});

	it('withSecrets adds one more secret (a token signed for this attempt) in all its forms', () => {
		const base = secretForms({ accessToken: 'stored-token-1' });
		const signed = 'eyJ-not-a-jwt-but-a-fresh-token';
		const added = withSecrets(base, [signed]);
		expect(added).toContain(signed);
		expect(added).toContain(Buffer.from(signed).toString('base64'));
		expect(added).toContain('stored-token-1');
		expect(redact(`sent ${encodeURIComponent(signed)} and stored-token-1`, added)).toBe(
			`sent ${R} and ${R}`,
		);
		const lengths = added.map((form) => form.length);
		expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
		// No new list for a known or short secret.
		expect(withSecrets(base, ['stored-token-1'])).toBe(base);
		expect(withSecrets(base, ['abc'])).toBe(base);
	});

	it('property: a printable secret of 8+ characters never survives redaction', () => {
		const secrets = fc.oneof(
			fc.string({ minLength: 8, maxLength: 40 }),
			fc.string({ unit: 'grapheme', minLength: 8, maxLength: 20 }),
		);
		fc.assert(
			fc.property(
				secrets,
				fc.string({ maxLength: 30 }),
				fc.string({ maxLength: 30 }),
				(secret, prefix, suffix) => {
					fc.pre(!prefix.includes(secret) && !suffix.includes(secret));
					expect(
						redact(prefix + secret + suffix, secretForms({ accessToken: secret })),
					).not.toContain(secret);
				},
			),
			PROPERTY,
		);
	});

	it('property: nor does any of its encoded forms', () => {
		const encodings: Array<(secret: string) => string> = [
			encodeURIComponent,
			(secret) => JSON.stringify(secret).slice(1, -1),
			(secret) => Buffer.from(secret).toString('base64'),
			(secret) => Buffer.from(secret).toString('base64url'),
		];
		// Text around it from another alphabet, so that it cannot complete an encoded form by chance.
		const around = fc.string({ unit: fc.constantFrom(' ', ':', ';', '|', '!'), maxLength: 10 });
		fc.assert(
			fc.property(
				fc.string({ minLength: 8, maxLength: 40 }),
				fc.constantFrom(...encodings),
				around,
				around,
				(secret, encode, prefix, suffix) => {
					const encoded = encode(secret);
					const result = redact(prefix + encoded + suffix, secretForms({ accessToken: secret }));
					expect(result).not.toContain(encoded);
					expect(result).not.toContain(secret);
				},
			),
			PROPERTY,
		);
	});
});

/** Whether redactAnswer took the answer for one holding a secret (it then returns a new value). */
function redactedAnswer(text: string, secret: string): boolean {
	const value = { text };
	return redactAnswer(value, text, secretForms({ accessToken: secret })) !== value;
}

describe('redactAnswer: exact forms only', () => {
	const SECRET = 'Tok/en+9&x"q-0123';
	const forms = secretForms({ accessToken: SECRET });
	const bytes = Buffer.from(SECRET);

	it.each([
		['raw', SECRET],
		['URL-encoded', encodeURIComponent(SECRET)],
		['form-encoded', new URLSearchParams({ s: SECRET }).toString().slice(2)],
		['HTML-escaped', SECRET.replace(/&/g, '&amp;').replace(/"/g, '&quot;')],
		['base64', bytes.toString('base64')],
		['base64url', bytes.toString('base64url')],
	])('a record holding the token %s, as any JSON writer writes it, is redacted', (_form, form) => {
		for (const text of [
			JSON.stringify({ echo: `got ${form}.` }),
			JSON.stringify({ echo: `got ${form}.` }).replace(/\//g, '\\/'),
		]) {
			const parsed = JSON.parse(text) as object;
			expect(redactAnswer(parsed, text, forms)).toEqual({ echo: `got ${R}.` });
		}
	});

	it('a key named by the token is redacted, and stays data (`__proto__` too)', () => {
		const text = `{"${SECRET.replace(/"/g, '\\"')}":1,"__proto__":{"a":"${encodeURIComponent(SECRET)}"}}`;
		const result = redactAnswer(JSON.parse(text) as object, text, forms) as Record<string, unknown>;
		expect(Object.keys(result)).toEqual([R, '__proto__']);
		expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ a: R });
	});

	it('an answer without a form, or with a part or another encoding of it, is returned as it is', () => {
		for (const text of [
			JSON.stringify({ people: [{ id: 'p_1', name: 'Zoe' }] }),
			JSON.stringify({ part: SECRET.slice(0, 12) }),
			JSON.stringify({ hex: bytes.toString('hex') }),
		])
			expect(redactedAnswer(text, SECRET)).toBe(false);
	});

	it('a list page with a nextLink (a plain `&`) and no secret is returned untouched', () => {
		const text = JSON.stringify({
			_metadata: { nextLink: 'http://127.0.0.1/api/people?next=c2s&limit=100' },
			people: [{ id: 'p_1', name: 'Zoe Jones' }],
		});
		expect(redactedAnswer(text, 'stored-token-1234')).toBe(false);
		expect(redactedAnswer(text.replace('Zoe', 'stored-token-1234'), 'stored-token-1234')).toBe(
			true,
		);
	});
});

describe('redactError: an error about to leave the node', () => {
	const SECRET = 'tok-Very.Secret/42';
	const forms = secretForms({ accessToken: SECRET });
	const node = {
		id: 'n',
		name: 'Integration Service',
		type: 't',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};

	it('takes the secret out of the message, description, stack, messages and the error it wraps', () => {
		const error = new NodeOperationError(node as never, `Average Price: got "${SECRET}"`, {
			description: `see ${encodeURIComponent(SECRET)}`,
		});
		error.messages.push(`raw ${SECRET}`);
		redactError(error, forms);
		const cause = error.cause as Error;
		expect(error.message).toBe('Average Price: got "[redacted]"');
		expect(error.description).toBe('see [redacted]');
		expect(error.messages).toEqual(['raw [redacted]']);
		expect(cause.message).toBe('Average Price: got "[redacted]"');
		for (const text of [error.stack, cause.stack]) expect(text).not.toContain(SECRET);
	});

	it('takes out the start of a secret a value cut leaves before its "…"', () => {
		const error = new Error(`got "${'x'.repeat(90)}${SECRET.slice(0, 10)}… (200 characters)`);
		redactError(error, forms);
		expect(error.message).toBe(`got "${'x'.repeat(90)}[redacted]… (200 characters)`);
	});
});

/** A signed HS512 JWT as the credential makes one: its header is the same for every token. */
function signedJwt(): string {
	const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
	const unsigned = `${part({ alg: 'HS512', typ: 'JWT' })}.${part({
		iss: 'client-id-visible',
		sub: 'user-1',
		iat: 1764170000,
		exp: 1764170900,
	})}`;
	const signature = createHmac('sha512', 'client-secret-1').update(unsigned).digest('base64url');
	return `${unsigned}.${signature}`;
}

describe("a JWT's parts (an echo without the JWT header)", () => {
	const jwt = signedJwt();
	const [header, payload, signature] = jwt.split('.');
	const signedForms = withSecrets(secretForms({ clientSecret: 'client-secret-1' }), [jwt]);

	it('the header is the constant one of HS512 (so "ey" + a suffix rebuilds the token)', () => {
		expect(header).toBe('eyJhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9');
	});

	it.each([
		['without its first 2 characters', `{"error":"bad suffix ${jwt.slice(2)}"}`],
		['without its header', `token claims ${payload}.${signature} rejected: signature ${signature}`],
		['its signature alone', `signature ${signature} rejected`],
		['its payload alone, URL-encoded', `claims ${encodeURIComponent(payload)}`],
	])(
		'a JWT sent, echoed %s, leaves an error message without its payload or signature',
		(_name, text) => {
			const result = redact(text, signedForms);
			expect(result).toContain(R);
			expect(result).not.toContain(signature);
			expect(result).not.toContain(payload);
		},
	);

	it('a 200 record holding the JWT without its header is redacted', () => {
		const record = { lastToken: `${payload}.${signature}`, name: 'Zoe' };
		const text = JSON.stringify(record);
		expect(redactAnswer(record, text, signedForms)).toEqual({
			lastToken: `${R}.${R}`,
			name: 'Zoe',
		});
	});

	it('a nextLink carrying the JWT without its header gives a link without it (nor a cursor)', () => {
		const link = `http://127.0.0.1/api/people?page=2&t=${payload}.${signature}&s=${signature}`;
		expect(withoutSecrets(link, signedForms)).toBe('http://127.0.0.1/api/people?page=2');
	});
});
