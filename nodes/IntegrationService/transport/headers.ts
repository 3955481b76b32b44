import { hasControlCharacter } from '../helpers/validation';

/** The highest character sent as written: visible ASCII and the space (0x20 to 0x7E). */
const LAST_SENDABLE = 0x7e;

/**
 * Why a header value would not reach the service exactly as written, if it would not. n8n's HTTP
 * client strips CR/LF, and writes header values as Latin-1, so `conn-東京` went out as `conn-` and
 * `conn-İd` as `conn-d`: another connection's ID, perhaps. Such a value is refused, never altered.
 */
export function headerValueProblem(value: string): string | undefined {
	if (hasControlCharacter(value)) return 'contains a line break or another control character';
	for (let index = 0; index < value.length; index++) {
		if (value.charCodeAt(index) > LAST_SENDABLE) {
			return 'contains characters that cannot be sent in an HTTP header as written (only ASCII letters, digits, punctuation and spaces)';
		}
	}
	return undefined;
}
