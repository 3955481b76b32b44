import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { describeValue } from '../../shared/service';
import { inputError } from '../helpers/validation';
import { FROM_VERSION_2 } from './version';

/**
 * The cursor a model passes back to read on (version 2). A tool's arguments are its parameters'
 * `$fromAI` keys (n8n-core's getSchema), so a list offers one by default: a parameter shown only in
 * the node's Tool variant (`@tool`), whose default asks the model for the cursor. With Page at a Time
 * on, the Cursor that the workflow's author sets takes its place.
 */

const FROM_AI = /\$from(AI|Ai|ai)\(/;

export const toolCursorProperty: INodeProperties = {
	displayName: 'Cursor',
	name: 'toolCursor',
	type: 'string',
	default:
		"={{ $fromAI('cursor', 'Leave empty for the first page. To read further, pass the nextCursor of the previous answer; when done is true there is nothing more', 'string', '') }}",
	description:
		'Where the page a model reads starts: the nextCursor of its previous call. By default the model fills it; a fixed value always reads the same page.',
	displayOptions: { show: { ...FROM_VERSION_2, '@tool': [true], pageAtATime: [false] } },
};

/** The cursor the item's model call starts from ('' for the first page). */
export function readToolCursor(ctx: IExecuteFunctions, itemIndex: number): string {
	const cursor = ctx.getNodeParameter(toolCursorProperty.name, itemIndex, '');
	if (cursor === undefined || cursor === null) return '';
	if (typeof cursor !== 'string') {
		const problem = `must be the text of a nextCursor, got ${describeValue(cursor)}`;
		throw inputError(ctx, itemIndex, toolCursorProperty.displayName, problem);
	}
	return cursor.trim();
}

/** Whether the model sets the cursor: the parameter the list reads it from asks it (`$fromAI`). */
export function modelSetsCursor(ctx: IExecuteFunctions, pageAtATime: boolean): boolean {
	const parameters = ctx.getNode().parameters;
	const cursor = pageAtATime ? parameters.cursor : parameters[toolCursorProperty.name];
	return FROM_AI.test(String(cursor ?? ''));
}
