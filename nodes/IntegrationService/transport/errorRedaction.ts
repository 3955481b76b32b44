import { MIN_SECRET_LENGTH, PLACEHOLDER, redact } from './secrets';

/*
 * An error about to leave the node, with every secret form of the run taken out (secrets.ts owns the
 * forms; this file, what an error holds them in).
 */

/**
 * A value an input message shows is cut after 100 characters with `…` (helpers/validation.ts): a
 * secret that straddles the cut is no whole form, so the start of any form just before a `…` goes too.
 */
function withoutCutSecrets(text: string, forms: readonly string[]): string {
	if (!text.includes('…')) return text;
	return text.replace(/([^…]*)…/g, (whole, before: string) => {
		for (const form of forms)
			for (let length = form.length - 1; length >= MIN_SECRET_LENGTH; length--)
				if (before.endsWith(form.slice(0, length)))
					return `${before.slice(0, before.length - length)}${PLACEHOLDER}…`;
		return whole;
	});
}

/** How deep an error's causes are followed: n8n wraps once or twice, a hostile cycle is cut. */
const MAX_CAUSES = 4;

/**
 * Takes every secret form out of an error in place: its message, description, stack, n8n's list of
 * messages and each of its causes (n8n keeps the error it wrapped as `cause`, with its own message).
 */
export function redactError(error: unknown, forms: readonly string[], depth = 0): void {
	if (!error || typeof error !== 'object' || depth > MAX_CAUSES) return;
	const fields = error as {
		message?: unknown;
		description?: unknown;
		stack?: unknown;
		messages?: unknown;
		cause?: unknown;
	};
	const clean = (text: string) => withoutCutSecrets(redact(text, forms), forms);
	for (const key of ['message', 'description', 'stack'] as const) {
		const text = fields[key];
		if (typeof text === 'string') fields[key] = clean(text);
	}
	if (Array.isArray(fields.messages))
		fields.messages = fields.messages.map((text: unknown) =>
			typeof text === 'string' ? clean(text) : text,
		);
	redactError(fields.cause, forms, depth + 1);
}
