import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

/**
 * Version 2 offers the forms in the user's words (records picked from lists, the fields that matter
 * on the form, one Options collection, a simple Simplify). Version 1 keeps the parameters of the
 * workflows saved with it, so they run unchanged. A reader checks `node.typeVersion >= FORM_VERSION`
 * where it decides (a function here would put this file on every request's path).
 */
export const FORM_VERSION = 2;

/** `displayOptions.show` conditions: a property of version 1 only, or of version 2 onwards. */
export const ONLY_VERSION_1: IDisplayOptions['show'] = { '@version': [1] };
export const FROM_VERSION_2: IDisplayOptions['show'] = {
	'@version': [{ _cnd: { gte: FORM_VERSION } }],
};

/**
 * An operation's properties in each version: a property both show alike is listed once; one that
 * differs is listed as version 1's, shown only there, then version 2's, shown from there on (the same
 * name, so one reader serves both). Lists of different lengths are split whole.
 */
export function versioned(
	version1: INodeProperties[],
	version2: INodeProperties[],
): INodeProperties[] {
	const only1 = (properties: INodeProperties[]) =>
		updateDisplayOptions({ show: ONLY_VERSION_1 }, properties);
	const from2 = (properties: INodeProperties[]) =>
		updateDisplayOptions({ show: FROM_VERSION_2 }, properties);
	if (version1.length !== version2.length) return [...only1(version1), ...from2(version2)];
	return version1.flatMap((property, at) =>
		JSON.stringify(property) === JSON.stringify(version2[at])
			? [property]
			: [...only1([property]), ...from2([version2[at]])],
	);
}
