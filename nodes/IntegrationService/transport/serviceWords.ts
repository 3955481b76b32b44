/**
 * The service's own words in a message: any text it sent shortened after every secret is taken out
 * (secrets.ts), an HTML page as its title and text, and an error body's message read from the shapes
 * services use. errors.ts puts them into the failure's message.
 */
import { redact } from './secrets';

const MAX_ERROR_TEXT = 300;

/** Secrets are taken out first, then the text is shortened: a cut never leaves part of a secret. */
export function shorten(text: string, secretForms: readonly string[]): string {
	const plain = redact(text, secretForms).replace(/\s+/g, ' ').trim();
	return plain.length > MAX_ERROR_TEXT ? `${plain.slice(0, MAX_ERROR_TEXT)}…` : plain;
}

export function looksLikeHtml(text: string, contentType = ''): boolean {
	return (
		/html/i.test(contentType) ||
		/^\s*<(!doctype|html|head|body|\?xml|[a-z][a-z0-9]*[\s>])/i.test(text)
	);
}

/** An HTML page (a proxy's or gateway's error page) as one line: its title, then its visible text. */
export function htmlText(html: string): string {
	const strip = (part: string) =>
		part
			.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
			.replace(/<[^>]*>/g, ' ')
			.replace(/\s+/g, ' ')
			.trim();
	const title = strip(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '');
	let text = strip(
		/<body[^>]*>([\s\S]*?)(<\/body>|$)/i.exec(html)?.[1] ??
			html.replace(/<head[\s\S]*?<\/head>/i, ''),
	);
	if (title !== '' && text.startsWith(title)) text = text.slice(title.length).trim();
	return `an HTML page${title ? ` titled "${title}"` : ''}${text ? `: ${text}` : ''}`;
}

/**
 * A connector's list of refused fields, `{"errors": [{"path": "title", "message": "is required"}]}`
 * (the 422 of an appointment create, beyond the OpenAPI), as `title: is required; …`; a path given
 * as a list of keys is joined with dots.
 */
function fieldErrorsText(errors: unknown): string | undefined {
	if (!Array.isArray(errors)) return undefined;
	const parts = errors.flatMap((entry: unknown) => {
		if (entry === null || typeof entry !== 'object') return [];
		const { path, message } = entry as Record<string, unknown>;
		const keys = Array.isArray(path) ? path : [path];
		const where = keys.every((key) => typeof key === 'string' || typeof key === 'number')
			? keys.join('.')
			: '';
		if (typeof message !== 'string') return where === '' ? [] : [`${where}: refused`];
		return [where === '' ? message : `${where}: ${message}`];
	});
	return parts.length > 0 ? parts.join('; ') : undefined;
}

/**
 * The service's own words for an error: {"error": "..."}, {"message": "..."} or, on the published
 * CRM endpoints, {"errorMessage": "..."}; a connector's {"errors": [{path, message}]}; else the body's text.
 */
export function serviceErrorText(body: string, secretForms: readonly string[]): string {
	const text = body.trim();
	if (text === '') return '';
	try {
		const parsed = JSON.parse(text) as unknown;
		if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
			const { error, message, errorMessage } = parsed as Record<string, unknown>;
			const nested =
				error && typeof error === 'object' ? (error as { message?: unknown }).message : undefined;
			const words = [error, nested, message, errorMessage].find(
				(candidate) => typeof candidate === 'string',
			);
			if (typeof words === 'string') return shorten(words, secretForms);
			const fields = fieldErrorsText((parsed as Record<string, unknown>).errors);
			if (fields !== undefined) return shorten(fields, secretForms);
		}
	} catch {
		// Not JSON: the shortened text below, without HTML tags.
	}
	return shorten(looksLikeHtml(text) ? htmlText(text) : text, secretForms);
}
