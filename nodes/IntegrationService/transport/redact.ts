import type { IDataObject } from 'n8n-workflow';

const PLACEHOLDER = '[redacted]';
/** Shorter values would blank out ordinary words; real tokens and secrets are far longer. */
const MIN_SECRET_LENGTH = 4;

/** Every form in which a secret may come back from a service, a proxy or an error page. */
function encodedForms(secret: string): string[] {
	const html = secret
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
	const json = JSON.stringify(secret).slice(1, -1);
	return [
		secret,
		encodeURIComponent(secret),
		encodeURIComponent(secret).replace(/%20/g, '+'),
		encodeURI(secret),
		html,
		html.replace(/&#39;/g, '&#x27;').replace(/\//g, '&#x2F;'),
		json,
		json.replace(/\//g, '\\/'),
		Buffer.from(secret).toString('base64'),
	];
}

/** Forms per loaded credential: a run loads it once and sends many requests with it. */
const formsOf = new WeakMap<IDataObject, readonly string[]>();

/** The secrets of a credential (raw and trimmed) in every encoded form, longest first. */
export function secretForms(credentials: IDataObject): readonly string[] {
	const known = formsOf.get(credentials);
	if (known) return known;
	const values = ['accessToken', 'clientSecret', 'signingSecret', 'sessionToken']
		.map((field) => credentials[field])
		.filter((value): value is string => typeof value === 'string')
		.flatMap((value) => [value, value.trim()])
		.filter((value) => value.length >= MIN_SECRET_LENGTH);
	const forms = new Set(values.flatMap(encodedForms).filter((form) => form.length >= MIN_SECRET_LENGTH));
	const sorted = [...forms].sort((a, b) => b.length - a.length);
	formsOf.set(credentials, sorted);
	return sorted;
}

/**
 * Replaces every secret form, any bearer token and any JWT by a placeholder. Runs on the whole text
 * before anything shortens it, so a cut can never leave part of a secret behind.
 */
export function redact(text: string, forms: readonly string[]): string {
	let result = text;
	for (const form of forms) result = result.split(form).join(PLACEHOLDER);
	return (
		result
			.replace(/(Bearer)(\s|%20|\+)+[A-Za-z0-9._~+/=%-]+/gi, `$1 ${PLACEHOLDER}`)
			// A JWT anywhere (a signed token echoed back) is a credential too, whatever its base64url parts hold.
			.replace(/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, PLACEHOLDER)
	);
}
