// A React 19 page that renders <mcp-elicitation> like any other element: `params` as a
// prop (React 19 sets it as a property), the answer through the `answer` event.
import { useEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import init, { defineElements } from "mcp-elicit-pkg";

const questions = [
  {
    message: "Which plan?",
    requestedSchema: {
      type: "object",
      properties: {
        plan: { type: "string", title: "Plan", oneOf: [{ const: "free", title: "Free" }, { const: "pro", title: "Pro" }] },
        seats: { type: "integer", title: "Seats", minimum: 1, maximum: 50, default: 3 },
      },
      required: ["plan"],
    },
  },
  {
    message: "Your email, for the invoice",
    requestedSchema: {
      type: "object",
      properties: { email: { type: "string", format: "email", title: "Email" } },
      required: ["email"],
    },
  },
];

function Question({ params, onAnswer }) {
  const ref = useRef(null);
  useEffect(() => {
    const el = ref.current;
    window.lastCard = el;
    const listener = (e) => onAnswer(e.detail);
    el.addEventListener("answer", listener);
    return () => el.removeEventListener("answer", listener);
  }, [onAnswer]);
  return <mcp-elicitation ref={ref} params={params} server-name="React host" server-host="mcp.react.example" />;
}

function App() {
  const [round, setRound] = useState(0);
  const [shown, setShown] = useState(true);
  const [answers, setAnswers] = useState([]);
  return (
    <>
      <h1>React host</h1>
      <button type="button" onClick={() => setRound((r) => (r + 1) % questions.length)}>Next question</button>
      <button type="button" onClick={() => setShown((s) => !s)}>Hide</button>
      {shown && <Question params={questions[round]} onAnswer={(a) => setAnswers((all) => [...all, a])} />}
      <pre id="react-result">{JSON.stringify(answers)}</pre>
    </>
  );
}

await init({ module_or_path: "/pkg/mcp_elicit_web_bg.wasm" });
defineElements();
createRoot(document.getElementById("root")).render(<App />);
