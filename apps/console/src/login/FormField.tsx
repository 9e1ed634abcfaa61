import type { ReactNode } from 'react';

/** A sign-in field with its message under it (the sign-in page avoids Arco's Form to stay light). */
export function FormField({ error, children }: { error?: string; children: ReactNode }) {
  return (
    <div className="login-field">
      {children}
      <div className="login-field-message" role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
}
