import type { IExecuteFunctions } from 'n8n-workflow';
import { ExpressionParser } from 'n8n-workflow';

import type { PathSegment } from '../../../shared/service';
import { hasControlCharacter } from '../../../shared/service';
import { requireText } from '../../helpers/kinds/text';
import { inputError } from '../../helpers/validation';

/** The Path typed is its shape: an expression's value stays in its segment (no other endpoint). */

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

/** The segments of a Path: typed text split on `/`, each expression evaluated on its own. */
function segmentsOf(
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
			// Typed text that names another place: a URL, `//host` or `\`.
			if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('//') || text.startsWith('\\'))
				refuse('give a path relative to /api, not a URL');
			text = text.replace(/^\/+/, '');
		}
		if (index === chunks.length - 1) text = text.trimEnd().replace(/\/+$/, '');
		if (hasControlCharacter(text)) refuse('contains a line break or another control character');
		if (/[?#]/.test(text))
			refuse('must not contain ? or #: put query parameters in Query Parameters');
		text.split('/').forEach((typed, position) => {
			if (position > 0) segments.push([]);
			if (typed !== '') segment().push({ typed });
		});
	});
	return segments.map((pieces, index) => segmentOf(pieces, index + 1, refuse));
}

/** One segment: typed parts decoded once, values exactly as given. */
function segmentOf(pieces: Piece[], position: number, refuse: Refuse): PathSegment {
	if (pieces.length === 0) refuse('has an empty part (two slashes in a row)');
	const typed = pieces.every((piece) => 'typed' in piece);
	const shown = pieces
		.map((piece) => ('typed' in piece ? piece.typed : shownCode(piece.code)))
		.join('');
	if (position === 1 && typed && shown === 'api')
		refuse('is relative to /api already: write loans, not /api/loans');
	const segment = pieces
		.map((piece) => ('typed' in piece ? decodedPart(piece.typed, position, refuse) : piece.value))
		.join('');
	if (segment.trim() === '') refuse(`part ${position} (${shown}) is empty`);
	if (segment === '.' || segment === '..')
		refuse(leavesPath(typed ? `"${shown}"` : `${shown} gives "${segment}"`, position));
	return { id: segment, field: 'Path' };
}

/** The item's Path under /api; a Path that is only one expression is read whole, as if typed. */
export function readPath(ctx: IExecuteFunctions, itemIndex: number): PathSegment[] {
	const raw: unknown = ctx.getNodeParameter('path', itemIndex, '', { rawExpressions: true });
	const chunks =
		typeof raw === 'string' && raw.startsWith('=')
			? ExpressionParser.splitExpression(raw.slice(1))
			: [];
	const expressions = chunks.filter((chunk) => chunk.type === 'code');
	const computedWhole =
		expressions.length === 1 &&
		chunks.every((chunk) => chunk.type === 'code' || chunk.text.trim() === '');
	if (expressions.length > 0 && !computedWhole) return segmentsOf(ctx, itemIndex, chunks);
	const given = ctx.getNodeParameter('path', itemIndex, '');
	const text = requireText(ctx, itemIndex, 'Path', given);
	return segmentsOf(ctx, itemIndex, [{ type: 'text', text }]);
}
