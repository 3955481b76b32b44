/**
 * nodes/IntegrationService/transport/answerRedaction.ts `redactAnswer`: whether a successful answer's raw text
 * holds a secret is decided by one pattern over the text (not one pass per form) and by a `\` or an
 * entity's `&`. The decision must be the one the per-form check made: the reference below is that
 * check as it was, and the property compares both on texts that hold a form, an escape or neither.
 */
import fc from 'fast-check';

import { encodedCharsPattern } from '../../nodes/IntegrationService/transport/encodedChars';
import { redactAnswer } from '../../nodes/IntegrationService/transport/answerRedaction';
import { secretForms } from '../../nodes/IntegrationService/transport/secrets';

const PROPERTY = { seed: 29, numRuns: 100 };

/** The per-form check redactAnswer made before (one `includes` per written form). */
function referenceHoldsSecret(text: string, secret: string): boolean {
	const forms = secretForms({ accessToken: secret });
	const escaped = forms.flatMap((form) => {
		const json = JSON.stringify(form).slice(1, -1);
		return [form, json, json.replace(/\//g, '\\/')];
	});
	const written = [...new Set(escaped)];
	if (written.some((form) => text.includes(form))) return true;
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
			PROPERTY,
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
