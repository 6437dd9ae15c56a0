import { Fragment } from 'react';

/**
 * An e-mail address that, when its column is narrow, wraps where a reader expects (after the @,
 * before a dot) instead of in the middle of a name. It still reads and copies as one address.
 */
export function EmailText({ address }: { address: string }) {
  // After each @, before each dot (no lookbehind: Safari before 16.4 cannot parse one).
  const parts = address.replace(/@/g, '@\n').replace(/\./g, '\n.').split('\n');
  return (
    <span className="break-words">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
