import type { IDisplayOptions, INode, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

/**
 * Version 2 offers the forms in the user's words (records picked from lists, the fields that matter
 * on the form, one Options collection, a simple Simplify). Version 1 keeps the parameters of the
 * workflows saved with it, so they run unchanged.
 */
export const FORM_VERSION = 2;

/** `displayOptions.show` conditions: a property of version 1 only, or of version 2 onwards. */
export const ONLY_VERSION_1: IDisplayOptions['show'] = { '@version': [1] };
export const FROM_VERSION_2: IDisplayOptions['show'] = {
	'@version': [{ _cnd: { gte: FORM_VERSION } }],
};

/** Whether the node runs with version 2's forms. */
export function hasForms(node: INode): boolean {
	return node.typeVersion >= FORM_VERSION;
}

/**
 * An operation's properties in each version: one list where both versions show the same, else
 * version 1's shown only there and version 2's from there on (the same names, so one reader serves both).
 */
export function versioned(
	version1: INodeProperties[],
	version2: INodeProperties[],
): INodeProperties[] {
	if (JSON.stringify(version1) === JSON.stringify(version2)) return version1;
	return [
		...updateDisplayOptions({ show: ONLY_VERSION_1 }, version1),
		...updateDisplayOptions({ show: FROM_VERSION_2 }, version2),
	];
}
