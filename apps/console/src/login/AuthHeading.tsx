/** Title and sub-title of a public page's card. */
export function AuthHeading({ title, subTitle }: { title: string; subTitle: string }) {
  return (
    <>
      <h1 className="login-form-title">{title}</h1>
      <div className="login-form-sub-title">{subTitle}</div>
    </>
  );
}
