import type { IDisplayOptions, INode } from 'n8n-workflow';

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
