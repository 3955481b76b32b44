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

import { redactAnswer } from '../../nodes/IntegrationService/transport/answerRedaction';
import { encodedCharsPattern } from '../../nodes/IntegrationService/transport/encodedChars';
import { withoutSecrets } from '../../nodes/IntegrationService/transport/nextPage';
import { redactError } from '../../nodes/IntegrationService/transport/errorRedaction';
import { redact, secretForms, withSecret } from '../../nodes/IntegrationService/transport/secrets';

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
		[
			'URL-encoded, lower-case hex',
			encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
		],
		['URL-encoded, space as +', encodeURIComponent(SECRET).replace(/%20/g, '+')],
		['URL-encoded, dots as %2E', encodeURIComponent(SECRET).replace(/\./g, '%2E')],
		['URL-encoded, dots as %2e', encodeURIComponent(SECRET).replace(/\./g, '%2e')],
		[
			"URL-encoded, RFC 3986 (also !'()*)",
			encodeURIComponent(SECRET).replace(
				/[!'()*]/g,
				(char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
			),
		],
		[
			'URL-encoded, every character but letters and digits',
			encodeURIComponent(SECRET).replace(
				/[-_.~!'()*]/g,
				(char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
			),
		],
		['encodeURI', encodeURI(SECRET)],
		[
			'HTML-escaped',
			SECRET.replace(/&/g, '&amp;')
				.replace(/</g, '&lt;')
				.replace(/>/g, '&gt;')
				.replace(/"/g, '&quot;')
				.replace(/'/g, '&#39;'),
		],
		[
			'HTML-escaped, hex entities',
			SECRET.replace(/&/g, '&amp;')
				.replace(/</g, '&lt;')
				.replace(/>/g, '&gt;')
				.replace(/"/g, '&quot;')
				.replace(/'/g, '&#x27;')
				.replace(/\//g, '&#x2F;'),
		],
		[
			'HTML-escaped, &apos;',
			SECRET.replace(/&/g, '&amp;')
				.replace(/</g, '&lt;')
				.replace(/>/g, '&gt;')
				.replace(/"/g, '&quot;')
				.replace(/'/g, '&apos;'),
		],
		['JSON-escaped', json],
		['JSON-escaped, \\/', json.replace(/\//g, '\\/')],
		[
			'JSON-escaped, \\u003c',
			json.replace(/[<>&']/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`),
		],
		['base64', bytes.toString('base64')],
		['base64 without padding', bytes.toString('base64').replace(/=+$/, '')],
		['base64url', bytes.toString('base64url')],
		['hex', bytes.toString('hex')],
		['HEX', bytes.toString('hex').toUpperCase()],
	])('replaces the %s form', (_form, encoded) => {
		expect(redact(`before ${encoded} after`, forms)).toBe(`before ${R} after`);
	});

	it('replaces every character as a \\u escape quoted once more by JSON.stringify (its backslash doubled)', () => {
		const escaped = Array.from(
			SECRET,
			(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
		).join('');
		expect(redact(`got ${JSON.stringify(escaped)}`, forms)).toBe(`got "${R}"`);
	});

	it('replaces the secret percent-encoded with each byte in its own hex case, and as little-endian UTF-16 hex', () => {
		let upper = false;
		const mixed = Array.from(Buffer.from(SECRET, 'utf8'), (byte) => {
			const hex = byte.toString(16).padStart(2, '0');
			upper = !upper;
			return `%${upper ? hex.toUpperCase() : hex}`;
		}).join('');
		expect(redact(`got ${mixed} back`, forms)).toBe(`got ${R} back`);
		const utf16le = Buffer.from(SECRET, 'utf16le').toString('hex');
		expect(redact(`got ${utf16le} back`, forms)).toBe(`got ${R} back`);
		const text = `{"echo":"${utf16le}"}`;
		expect(redactAnswer(JSON.parse(text) as object, text, forms)).toEqual({ echo: R });
	});

	it.each([0, 1, 2])(
		'finds the secret inside a longer base64 text (%i bytes before it)',
		(before) => {
			const secret = 'a-long-secret-value-0123';
			const encoded = Buffer.from(`${'p'.repeat(before)}${secret} trailing text`).toString(
				'base64',
			);
			const result = redact(encoded, secretForms({ accessToken: secret }));
			expect(result).toContain(R);
			// What is left before the placeholder encodes at most the bytes that came before the secret.
			expect(result.indexOf(R)).toBeLessThanOrEqual(Math.ceil((before * 8) / 6));
			expect(result).not.toBe(encoded);
		},
	);

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
		// Its dots percent-encoded by a proxy, in either case, also with its - and _ encoded.
		expect(redact('got eyJhbGciOiJIUzUxMiJ9%2EeyJzdWIiOiJ0In0%2ec2ln_- back', NO_FORMS)).toBe(
			`got ${R} back`,
		);
		expect(redact('got eyJhbGciOiJIUzUxMiJ9%2eeyJzdWIiOiJ0In0.c2ln%5Fsig%2d back', NO_FORMS)).toBe(
			`got ${R} back`,
		);
		expect(redact('nothing secret here', NO_FORMS)).toBe('nothing secret here');
	});

	it('secretForms: the secret fields, raw and trimmed, longest first, once per credential', () => {
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
		expect(secretForms(creds)).toBe(all);
		expect(redact('padded-token / client-id-visible', all)).toBe(`${R} / client-id-visible`);
	});

	it('secretForms: values shorter than 4 characters are not secrets (they would blank out words)', () => {
		expect(secretForms({ accessToken: 'abc' })).toEqual([]);
		expect(redact('abc', secretForms({ accessToken: 'abc' }))).toBe('abc');
	});

	it('withSecret adds one more secret (a token signed for this attempt) in all its forms', () => {
		const base = secretForms({ accessToken: 'stored-token-1' });
		const signed = 'eyJ-not-a-jwt-but-a-fresh-token';
		const added = withSecret(base, signed);
		expect(added).toContain(signed);
		expect(added).toContain(Buffer.from(signed).toString('base64'));
		expect(added).toContain('stored-token-1');
		expect(redact(`sent ${encodeURIComponent(signed)} and stored-token-1`, added)).toBe(
			`sent ${R} and ${R}`,
		);
		const lengths = added.map((form) => form.length);
		expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
		// The same token again (requests of one second) gives the same list; no new list for a known or short secret.
		expect(withSecret(base, signed)).toBe(added);
		expect(withSecret(base, 'stored-token-1')).toBe(base);
		expect(withSecret(base, 'abc')).toBe(base);
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
			(secret) => Buffer.from(secret).toString('hex'),
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

const ANSWER_PROPERTY = { seed: 29, numRuns: 100 };

/** The per-form check redactAnswer made before (one `includes` per written form). */
function referenceHoldsSecret(text: string, secret: string): boolean {
	const forms = secretForms({ accessToken: secret });
	const escaped = forms.flatMap((form) => {
		const json = JSON.stringify(form).slice(1, -1);
		return [form, json, json.replace(/\//g, '\\/')];
	});
	const written = [...new Set(escaped)];
	if (written.some((form) => text.includes(form))) return true;
	// Any run of 12 characters of a secret of 8 or more (all but 4 of a shorter one), as written.
	for (const value of new Set([secret, secret.trim()])) {
		const run = Math.min(12, Math.max(8, value.length - 4));
		for (let at = 0; value.length >= 8 && at + run <= value.length; at++)
			if (text.includes(value.slice(at, at + run))) return true;
	}
	if (!/\\|&(?:#|amp;|lt;|gt;|quot;|apos;)/.test(text)) return false;
	const secrets = [...new Set([secret, secret.trim()])]
		.filter((value) => value.length >= 4)
		.sort((a, b) => b.length - a.length);
	const pattern = secrets.length ? encodedCharsPattern(secrets) : null;
	if (pattern && text.search(pattern) >= 0) return true;
	if (!text.includes('\\u') && !text.includes('\\\\')) return false;
	const escapes: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
	const decoded = text.replace(/\\(?:u([0-9a-fA-F]{4})|(.))/g, (_e, hex: string, char: string) =>
		hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : (escapes[char] ?? char),
	);
	return (
		written.some((form) => decoded.includes(form)) ||
		(pattern !== null && decoded.search(pattern) >= 0)
	);
}

/** Whether redactAnswer took the answer for one holding a secret (it then returns a new value). */
function redactedAnswer(text: string, secret: string): boolean {
	const value = { text };
	return redactAnswer(value, text, secretForms({ accessToken: secret })) !== value;
}

describe('redactAnswer: which answers are searched for secrets', () => {
	it('property: decides as the per-form check did, for texts with and without a form or an escape', () => {
		const secret = fc.oneof(
			fc.string({ minLength: 4, maxLength: 24 }),
			fc.stringMatching(/^[A-Za-z0-9./+&<>"'\\-]{4,24}$/),
		);
		const noise = fc.string({
			unit: fc.constantFrom(
				'a',
				'Z',
				'0',
				' ',
				'"',
				'\\',
				'&',
				'#',
				';',
				'u',
				'/',
				'%',
				'.',
				'amp;',
			),
			maxLength: 30,
		});
		const encodings: Array<(secret: string) => string> = [
			(value) => value,
			(value) => JSON.stringify(value).slice(1, -1),
			(value) => JSON.stringify(value).slice(1, -1).replace(/\//g, '\\/'),
			encodeURIComponent,
			(value) => Buffer.from(value).toString('base64'),
			(value) => Array.from(value, (char) => `&#${char.codePointAt(0)};`).join(''),
			(value) =>
				Array.from(value, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join(
					'',
				),
			(value) => value.slice(1),
			() => '',
		];
		fc.assert(
			fc.property(
				secret,
				noise,
				fc.constantFrom(...encodings),
				noise,
				(value, before, encode, after) => {
					const text = `${before}${encode(value)}${after}`;
					expect(redactedAnswer(text, value)).toBe(referenceHoldsSecret(text, value));
				},
			),
			ANSWER_PROPERTY,
		);
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
		expect(redactedAnswer(text.replace('&limit', '&amp;limit'), 'stored-token-1234')).toBe(false);
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

describe('parts of a secret (an echo cut at either end or without the JWT header)', () => {
	const jwt = signedJwt();
	const [header, payload, signature] = jwt.split('.');
	const signedForms = withSecret(secretForms({ clientSecret: 'client-secret-1' }), jwt);
	const TOKEN = 'hostile-tok-SECRET-987';
	const tokenForms = secretForms({ accessToken: TOKEN });

	it('the header is the constant one of HS512 (so "ey" + a suffix rebuilds the token)', () => {
		expect(header).toBe('eyJhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9');
	});

	it.each([
		['without its first 2 characters', `{"error":"bad suffix ${jwt.slice(2)}"}`],
		['without its header', `token claims ${payload}.${signature} rejected: signature ${signature}`],
		['its signature alone', `signature ${signature} rejected`],
		['its signature cut at both ends', `signature …${signature.slice(5, -7)}… rejected`],
		['its payload alone, URL-encoded', `claims ${encodeURIComponent(payload)}`],
	])('a JWT sent, echoed %s, leaves an error message with no part of it', (_name, text) => {
		const result = redact(text, signedForms);
		expect(result).toContain(R);
		for (let at = 0; at + 12 <= signature.length; at++)
			expect(result).not.toContain(signature.slice(at, at + 12));
		expect(result).not.toContain(payload);
	});

	it('a 200 record holding the JWT without its header is redacted', () => {
		const record = { lastToken: `${payload}.${signature}`, name: 'Zoe' };
		const text = JSON.stringify(record);
		expect(redactAnswer(record, text, signedForms)).toEqual({
			lastToken: `${R}.${R}`,
			name: 'Zoe',
		});
	});

	it('a nextLink carrying the JWT without its header gives a link without it (nor a cursor)', () => {
		const link = `http://127.0.0.1/api/people?page=2&t=${payload}.${signature}&s=${signature.slice(3)}`;
		expect(withoutSecrets(link, signedForms)).toBe('http://127.0.0.1/api/people?page=2');
	});

	it.each([
		['without its last 3 characters', 'hostile-tok-SECRET-'],
		['without its first 2 characters', 'stile-tok-SECRET-987'],
		['cut at both ends (12 characters)', 'tile-tok-SEC'],
	])('the access token %s is redacted in messages and answers', (_name, part) => {
		expect(redact(`{"error":"token ${part} refused"}`, tokenForms)).toBe(
			`{"error":"token ${R} refused"}`,
		);
		const record = { echo: `was ${part}.` };
		expect(redactAnswer(record, JSON.stringify(record), tokenForms)).toEqual({
			echo: `was ${R}.`,
		});
	});

	it('11 characters of the token, or ordinary words, are left as they are', () => {
		for (const text of ['tile-tok-SE', 'the hostile takeover', 'SECRET-98 is a code'])
			expect(redact(text, tokenForms)).toBe(text);
	});

	it.each([
		[
			'every byte percent-encoded (lower-case hex)',
			(v: string) =>
				Array.from(Buffer.from(v), (b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
		],
		[
			'every byte percent-encoded (upper-case hex)',
			(v: string) =>
				Array.from(Buffer.from(v), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(
					'',
				),
		],
		[
			'as UTF-16 hex',
			(v: string) => Array.from(v, (c) => c.charCodeAt(0).toString(16).padStart(4, '0')).join(''),
		],
	])('the access token %s in a 200 record is redacted', (_name, encode) => {
		const record = { echo: encode(TOKEN) };
		expect(redactAnswer(record, JSON.stringify(record), tokenForms)).toEqual({ echo: R });
	});
});
