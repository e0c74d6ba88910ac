import {
  type Dimensions,
  type Edge,
  Handle,
  type Node,
  type NodeProps,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useNodesInitialized,
  useReactFlow,
} from '@xyflow/react';
import { useEffect, useRef } from 'react';
import { type AgentRunState, departed, type RunState } from '../../fold/run-state.js';
import { heldTask, waitingOnText } from '../../fold/waiting-fold.js';
import { PERSON, type Streaming, type Traffic } from './views.js';

type AgentData = {
  agent: AgentRunState | undefined;
  name: string;
  maxTurns: number | undefined;
  /** The task it works on, or keeps while it waits. */
  taskId: string | undefined;
  task: string | undefined;
  /** The last line of the text it is streaming now, while it works. */
  line: string | undefined;
  selected: boolean;
};
type AgentNode = Node<AgentData, 'agent'>;

function AgentCard({ data }: NodeProps<AgentNode>) {
  const { agent, name, maxTurns, taskId, task, line, selected } = data;
  const status = agent?.status ?? (name === PERSON ? 'person' : 'idle');
  return (
    <div className={`agent-node status-${status}${selected ? ' selected' : ''}`} data-agent={name}>
      <Handle id="top" type="target" position={Position.Top} className="handle" />
      <Handle id="left" type="target" position={Position.Left} className="handle" />
      <div className="agent-name">
        {name === PERSON ? 'you' : name}
        {agent?.role === 'lead' ? <span className="role"> lead</span> : null}
      </div>
      {agent ? (
        <>
          <div className="agent-status">
            {status}
            {agent.status === 'waiting' ? ` ${waitingOnText(agent)}` : ''}
          </div>
          <div className="agent-turns">
            turns {agent.countedTurns}
            {maxTurns === undefined ? '' : ` / ${maxTurns}`}
          </div>
          <div className="agent-task" title={task}>
            {taskId ? `${taskId}${task ? `: ${task}` : ''}` : '—'}
          </div>
          {line ? <div className="agent-line">{line}</div> : null}
        </>
      ) : (
        <div className="agent-status">the person</div>
      )}
      <Handle id="bottom" type="source" position={Position.Bottom} className="handle" />
      <Handle id="right" type="source" position={Position.Right} className="handle" />
    </div>
  );
}

const nodeTypes = { agent: AgentCard };

/** Where each agent sits: the lead on top, the members on an arc below, the person aside. */
function layout(names: readonly string[], lead: string | null): Map<string, { x: number; y: number }> {
  const places = new Map<string, { x: number; y: number }>();
  const members = names.filter((name) => name !== lead && name !== PERSON);
  if (lead) places.set(lead, { x: 0, y: 0 });
  places.set(PERSON, { x: -360, y: 0 });
  const spread = Math.max(1, members.length - 1);
  members.forEach((name, index) => {
    const x = (index - spread / 2) * 260;
    places.set(name, { x, y: 190 + Math.abs(index - spread / 2) * 25 });
  });
  return places;
}

/** The last non-empty line of a text, if it has one. */
function lastLine(text: string | undefined): string | undefined {
  return text
    ?.split('\n')
    .map((line) => line.trim())
    .findLast((line) => line.length > 0);
}

/**
 * The team as the fold knows its roster: an agent joins the graph when it joins the run (from
 * the team's definition, `run.addMember` or a spawn) and leaves it when it departs (shut
 * down, retired or removed), with its edges.
 */
export function TeamGraph(props: {
  state: RunState;
  traffic: readonly Traffic[];
  limits: ReadonlyMap<string, number>;
  streaming: ReadonlyMap<string, Streaming>;
  selected: string | null;
  onSelect: (agent: string) => void;
}) {
  const { state, limits, selected } = props;
  const names = [...state.agents.values()].filter((agent) => !departed(agent)).map((agent) => agent.name);
  if (props.traffic.some((pair) => pair.a === PERSON || pair.b === PERSON)) names.push(PERSON);
  const drawn = new Set(names);
  const traffic = props.traffic.filter((pair) => drawn.has(pair.a) && drawn.has(pair.b));
  const places = layout(names, state.lead);
  const nodes: AgentNode[] = names.map((name) => {
    const agent = state.agents.get(name);
    const held = agent?.taskId ? state.tasks.get(agent.taskId) : heldTask(state.tasks, name);
    return {
      id: name,
      type: 'agent',
      position: places.get(name) ?? { x: 0, y: 0 },
      data: {
        agent,
        name,
        maxTurns: limits.get(name),
        taskId: held?.id,
        task: held?.title,
        line: agent?.status === 'working' ? lastLine(props.streaming.get(name)?.text) : undefined,
        selected: selected === name,
      },
      draggable: false,
    };
  });
  const edges: Edge[] = traffic.map(({ a, b, count }) => {
    // The lead's edges go down to its members; the others run from the left card's right
    // side to the right card's left side, so they never loop round a card.
    const fromLead = a === state.lead || b === state.lead;
    const [source, target] = fromLead
      ? a === state.lead
        ? [a, b]
        : [b, a]
      : (places.get(a)?.x ?? 0) <= (places.get(b)?.x ?? 0)
        ? [a, b]
        : [b, a];
    return {
      id: `${a}~${b}`,
      source,
      target,
      sourceHandle: fromLead ? 'bottom' : 'right',
      targetHandle: fromLead ? 'top' : 'left',
      label: String(count),
      data: { count },
      className: 'traffic',
      style: { strokeWidth: Math.min(10, 1 + Math.log2(1 + count) * 1.6) },
    };
  });
  return (
    <div className="graph" data-edges={edges.length}>
      <ReactFlowProvider>
        <Flow nodes={nodes} edges={edges} roster={names.join(',')} onSelect={props.onSelect} />
      </ReactFlowProvider>
    </div>
  );
}

function Flow(props: {
  nodes: AgentNode[];
  edges: Edge[];
  roster: string;
  onSelect: (agent: string) => void;
}) {
  const measured = useNodesInitialized();
  const { fitView } = useReactFlow();
  // Each card's size as React Flow measured it, given back with every new node object: a node
  // without one is drawn hidden until measured again, and the page makes new ones on every
  // event (each frame, while an agent streams text), faster than a measure may come.
  const sizes = useRef(new Map<string, Dimensions>());
  const nodes = props.nodes.map((node) => {
    const size = sizes.current.get(node.id);
    return size ? { ...node, measured: size } : node;
  });
  // The whole team in view once its cards are measured, and again when someone joins.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `roster` says who is drawn.
  useEffect(() => {
    if (!measured) return;
    // A frame later: a card that just joined is measured by then.
    const frame = requestAnimationFrame(() => void fitView({ padding: 0.15 }));
    return () => cancelAnimationFrame(frame);
  }, [measured, props.roster, fitView]);
  return (
    <ReactFlow
      nodes={nodes}
      onNodesChange={(changes) => {
        for (const change of changes)
          if (change.type === 'dimensions' && change.dimensions)
            sizes.current.set(change.id, change.dimensions);
      }}
      edges={props.edges}
      nodeTypes={nodeTypes}
      fitView
      fitViewOptions={{ padding: 0.15 }}
      nodesConnectable={false}
      onNodeClick={(_, node) => {
        if (node.id !== PERSON) props.onSelect(node.id);
      }}
    />
  );
}
