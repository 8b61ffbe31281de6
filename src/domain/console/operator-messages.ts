/**
 * What an operator may send to users' message centers (the console's 消息 page and POST /messages): a
 * title that fits the message center's list row and a body that fits its detail, as text.
 */
export const MESSAGE_TITLE_MAX = 50
export const MESSAGE_CONTENT_MAX = 1000

/**
 * The control characters the server refuses (NUL among them): none in a title, which is one line; none in
 * a body but tab and line feed.
 */
/* eslint-disable no-control-regex */
export const TITLE_CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/
export const CONTENT_CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f]/
/* eslint-enable no-control-regex */
