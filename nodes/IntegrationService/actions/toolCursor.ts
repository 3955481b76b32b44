import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { describeValue } from '../../shared/service';
import { inputError } from '../helpers/validation';
import { FROM_VERSION_2 } from './settings';

/** The cursor a model passes back (version 2): a parameter of the Tool variant only, `$fromAI` by default. */

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

export function readToolCursor(ctx: IExecuteFunctions, itemIndex: number): string {
	const cursor = ctx.getNodeParameter(toolCursorProperty.name, itemIndex, '');
	if (cursor === undefined || cursor === null) return '';
	if (typeof cursor !== 'string') {
		const problem = `must be the text of a nextCursor, got ${describeValue(cursor)}`;
		throw inputError(ctx, itemIndex, toolCursorProperty.displayName, problem);
	}
	return cursor.trim();
}

/** Whether the parameter the list reads the cursor from asks the model (`$fromAI`). */
export function modelSetsCursor(ctx: IExecuteFunctions, pageAtATime: boolean): boolean {
	const parameters = ctx.getNode().parameters;
	const cursor = pageAtATime ? parameters.cursor : parameters[toolCursorProperty.name];
	return FROM_AI.test(String(cursor ?? ''));
}
