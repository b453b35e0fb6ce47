import { type FormEvent, useState } from 'react';

/** The message box: sends trimmed text, keeps it when sending is not possible. */
export function Composer(props: {
  placeholder: string;
  busy: boolean;
  onSend: (text: string) => void;
  suggestions?: string[];
}) {
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const message = text.trim();
    if (!message || props.busy) return;
    props.onSend(message);
    setText('');
  };
  return (
    <form className="composer" onSubmit={submit}>
      {props.suggestions && props.suggestions.length > 0 ? (
        <div className="suggestions">
          {props.suggestions.map((suggestion) => (
            <button
              key={suggestion}
              type="button"
              className="suggestion"
              disabled={props.busy}
              onClick={() => props.onSend(suggestion)}
            >
              {suggestion}
            </button>
          ))}
        </div>
      ) : null}
      <div className="composer-row">
        <input
          aria-label="Message"
          value={text}
          placeholder={props.placeholder}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="send" disabled={props.busy || !text.trim()}>
          Send
        </button>
      </div>
    </form>
  );
}
