import type { IExecuteFunctions } from 'n8n-workflow';
import { ExpressionParser } from 'n8n-workflow';

import type { PathSegment } from '../../../shared/service';
import { hasControlCharacter } from '../../../shared/service';
import { requireText } from '../../helpers/kinds/text';
import { inputError } from '../../helpers/validation';

/**
 * The Path typed is its shape: its `/` separate segments, each decoded once; what an expression inside
 * gives stays in its segment, so an input row never chooses another endpoint.
 */

type Refuse = (problem: string) => never;

function refuser(ctx: IExecuteFunctions, itemIndex: number): Refuse {
	return (problem) => {
		throw inputError(
			ctx,
			itemIndex,
			'Path',
			problem,
			'The host comes from the credential; Path is what follows /api, e.g. loans/123.',
		);
	};
}

/** Typed text at the start of the Path that names another place: a URL, `//host` or `\`. */
function refuseUrl(text: string, refuse: Refuse): void {
	if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('//') || text.startsWith('\\')) {
		refuse('give a path relative to /api, not a URL');
	}
}

/** Typed text anywhere in the Path: no control character, no query or fragment. */
function refuseTypedText(text: string, refuse: Refuse): void {
	if (hasControlCharacter(text)) refuse('contains a line break or another control character');
	if (/[?#]/.test(text))
		refuse('must not contain ? or #: put query parameters in Query Parameters');
}

/** A typed part, percent-decoded once; it must not hold a `/` or `\` once decoded. */
function decodedPart(part: string, position: number, refuse: Refuse): string {
	let decoded: string;
	try {
		decoded = decodeURIComponent(part);
	} catch {
		return refuse(`part ${position} ("${part}") is not valid percent-encoding`);
	}
	if (decoded.includes('/') || decoded.includes('\\')) refuse(leavesPath(`"${part}"`, position));
	return decoded;
}

const leavesPath = (shown: string, position: number) =>
	`part ${position} (${shown}) would leave the path it names; "." and ".." are not allowed`;

const isDotSegment = (segment: string) => segment === '.' || segment === '..';

/** A path typed as text, or computed whole by one expression: split on `/`, each part decoded once. */
function typedPath(ctx: IExecuteFunctions, itemIndex: number, raw: unknown): PathSegment[] {
	const refuse = refuser(ctx, itemIndex);
	const path = requireText(ctx, itemIndex, 'Path', raw).trim();
	refuseUrl(path, refuse);
	refuseTypedText(path, refuse);
	const parts = path.replace(/^\/+/, '').replace(/\/+$/, '').split('/');
	if (parts[0] === 'api') refuse('is relative to /api already: write loans, not /api/loans');
	return parts.map((part, index) => {
		const segment = decodedPart(part, index + 1, refuse);
		if (segment.trim() === '') refuse('has an empty part (two slashes in a row)');
		if (isDotSegment(segment)) refuse(leavesPath(`"${part}"`, index + 1));
		return { id: segment, field: 'Path' };
	});
}

/** An expression as the editor shows it, for messages. */
const shorten = (code: string) => (code.length > 60 ? `${code.slice(0, 57)}...` : code);
const shownCode = (code: string) => `{{${shorten(code)}}}`;

/** What an expression gives, as the text it stands for in its segment; nothing is made up. */
function valueText(value: unknown, code: string, refuse: Refuse): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
		return String(value);
	const what =
		value === null || value === undefined
			? `no value (${String(value)})`
			: typeof value === 'object'
				? 'an object or a list, not text'
				: String(value);
	return refuse(`${shownCode(code)} gives ${what}`);
}

type Piece = { typed: string } | { code: string; value: string };

/** The segments of a Path that mixes typed text and expressions, each expression evaluated on its own. */
function templatePath(
	ctx: IExecuteFunctions,
	itemIndex: number,
	chunks: ExpressionParser.ExpressionChunk[],
): PathSegment[] {
	const refuse = refuser(ctx, itemIndex);
	const segments: Piece[][] = [[]];
	chunks.forEach((chunk, index) => {
		const segment = () => segments[segments.length - 1];
		if (chunk.type === 'code') {
			if (!chunk.hasClosingBrackets)
				refuse(`an expression ({{${shorten(chunk.text)}) has no closing }}`);
			// Rejoined by n8n's own joiner, so that an escaped }} inside the expression stays inside it.
			const value = ctx.evaluateExpression(ExpressionParser.joinExpression([chunk]), itemIndex);
			segment().push({ code: chunk.text, value: valueText(value, chunk.text, refuse) });
			return;
		}
		let text = chunk.text;
		if (index === 0) {
			text = text.trimStart();
			refuseUrl(text, refuse);
			text = text.replace(/^\/+/, '');
		}
		if (index === chunks.length - 1) text = text.trimEnd().replace(/\/+$/, '');
		refuseTypedText(text, refuse);
		text.split('/').forEach((typed, position) => {
			if (position > 0) segments.push([]);
			if (typed !== '') segment().push({ typed });
		});
	});
	return segments.map((pieces, index) => templateSegment(pieces, index + 1, refuse));
}

/** One segment of a mixed Path: typed parts decoded once, values exactly as given. */
function templateSegment(pieces: Piece[], position: number, refuse: Refuse): PathSegment {
	const [first] = pieces;
	if (position === 1 && pieces.length === 1 && first && 'typed' in first && first.typed === 'api')
		refuse('is relative to /api already: write loans, not /api/loans');
	const segment = pieces
		.map((piece) => ('typed' in piece ? decodedPart(piece.typed, position, refuse) : piece.value))
		.join('');
	const shown = pieces
		.map((piece) => ('typed' in piece ? piece.typed : shownCode(piece.code)))
		.join('');
	if (pieces.length === 0) refuse('has an empty part (two slashes in a row)');
	if (segment.trim() === '') refuse(`part ${position} (${shown}) is empty`);
	if (isDotSegment(segment)) refuse(leavesPath(`${shown} gives "${segment}"`, position));
	return { id: segment, field: 'Path' };
}

/** The item's Path under /api: no other host, no climbing out, an expression's value one segment's text. */
export function readPath(ctx: IExecuteFunctions, itemIndex: number): PathSegment[] {
	const raw: unknown = ctx.getNodeParameter('path', itemIndex, '', { rawExpressions: true });
	if (typeof raw !== 'string' || !raw.startsWith('=')) return typedPath(ctx, itemIndex, raw);
	const chunks = ExpressionParser.splitExpression(raw.slice(1));
	const expressions = chunks.filter((chunk) => chunk.type === 'code');
	const computedWhole =
		expressions.length === 1 &&
		chunks.every((chunk) => chunk.type === 'code' || chunk.text.trim() === '');
	if (expressions.length === 0 || computedWhole) {
		return typedPath(ctx, itemIndex, ctx.getNodeParameter('path', itemIndex, ''));
	}
	return templatePath(ctx, itemIndex, chunks);
}
