<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>Acceptance</name>
    <message>
        <source>the result file is not UTF-8 text</source>
        <translation>结果文件不是 UTF-8 文本</translation>
    </message>
    <message>
        <source>not valid JSON (line {line}, column {col}: {msg})</source>
        <translation>不是有效的 JSON（第 {line} 行，第 {col} 列：{msg}）</translation>
    </message>
    <message>
        <source>a kit result must be a JSON object</source>
        <translation>测试结果必须是一个 JSON 对象</translation>
    </message>
    <message>
        <source>schema: expected &apos;{want}&apos;, got {got}</source>
        <translation>schema：应为“{want}”，实际为 {got}</translation>
    </message>
    <message>
        <source>{file}: {error}</source>
        <translation>{file}：{error}</translation>
    </message>
    <message>
        <source>gpuplanner.core.flops: 6·N (active matmul weights) + causal attention (Kaplan et al. 2020)</source>
        <translation>gpuplanner.core.flops：6·N（激活的矩阵乘权重）+ 因果注意力（Kaplan 等，2020）</translation>
    </message>
    <message>
        <source>gpuplanner.core.flops for the planned model (no shape in the result)</source>
        <translation>按方案中的模型由 gpuplanner.core.flops 计算（结果中没有模型形状）</translation>
    </message>
    <message>
        <source>Measured on the CPU (gloo, tiny sizes): this checks the kit, not the server; the figures mean nothing for the plan.</source>
        <translation>在 CPU 上测得（gloo，极小规模）：这只检查了测试套件本身，不代表服务器；这些数字对方案没有参考意义。</translation>
    </message>
    <message>
        <source>Note in the result: {note}</source>
        <translation>结果中的备注：{note}</translation>
    </message>
    <message>
        <source>The kit reported an error: {err}</source>
        <translation>测试套件报告了错误：{err}</translation>
    </message>
    <message>
        <source>The plan keeps about {need:,.0f} GiB per server in CPU memory (CPU offload), and the result does not give the server&apos;s host RAM: read it with free -g before the run.</source>
        <translation>此方案在每台服务器的 CPU 内存中保存约 {need:,.0f} GiB（CPU 卸载），而结果中没有服务器的主机内存：运行前请用 free -g 查看。</translation>
    </message>
    <message>
        <source>The server has {have:,.0f} GiB of host RAM; the plan&apos;s CPU offload needs about {need:,.0f} GiB per server: this server cannot run the plan. Ask the vendor for servers with that much CPU memory, or plan without CPU offload.</source>
        <translation>服务器有 {have:,.0f} GiB 主机内存；此方案的 CPU 卸载每台服务器约需 {need:,.0f} GiB：这台服务器跑不了此方案。请向供应商要这么多 CPU 内存的服务器，或改为不用 CPU 卸载的方案。</translation>
    </message>
    <message>
        <source>Host RAM: {have:,.0f} GiB per server, enough for the {need:,.0f} GiB the plan&apos;s CPU offload needs.</source>
        <translation>主机内存：每台服务器 {have:,.0f} GiB，足够此方案 CPU 卸载所需的 {need:,.0f} GiB。</translation>
    </message>
    <message>
        <source>The kit reported {n} more errors (not listed)</source>
        <translation>测试套件另报告了 {n} 个错误（未列出）</translation>
    </message>
    <message>
        <source>The server reports {names}, but the plan is for {gpu}.</source>
        <translation>服务器报告的是 {names}，但方案针对的是 {gpu}。</translation>
    </message>
    <message>
        <source>The server shows {have} GPUs; the plan needs {want} per node.</source>
        <translation>服务器显示有 {have} 张 GPU；方案需要每节点 {want} 张。</translation>
    </message>
    <message>
        <source>Matmul on GPU {gpus} reaches only {pct:.0f}% of the {peak:g} TFLOPS dense peak (large GEMMs usually reach 80–87%): power cap, clocks, thermal throttling or a different card.</source>
        <translation>GPU {gpus} 上的矩阵乘只达到 {peak:g} TFLOPS 稠密峰值的 {pct:.0f}%（大 GEMM 通常能到 80–87%）：可能是功耗上限、频率、过热降频，或者卡型不对。</translation>
    </message>
    <message>
        <source>Matmul: {lo:.0f}–{hi:.0f}% of dense peak on every GPU.</source>
        <translation>矩阵乘：每张 GPU 均达到稠密峰值的 {lo:.0f}–{hi:.0f}%。</translation>
    </message>
    <message>
        <source>Matmul speed differs by more than 10% between GPUs ({lo:.0f}–{hi:.0f} TFLOPS): one card is slower than its neighbours.</source>
        <translation>各 GPU 的矩阵乘速度相差超过 10%（{lo:.0f}–{hi:.0f} TFLOPS）：有一张卡比其他卡慢。</translation>
    </message>
    <message>
        <source>none (CPU run)</source>
        <translation>无（CPU 运行）</translation>
    </message>
    <message>
        <source>measured NCCL busbw of {link}: {src}</source>
        <translation>{link} 的 NCCL busbw 实测值：{src}</translation>
    </message>
    <message>
        <source>one-way link bandwidth of {gpu} (catalog, bidirectional / 2)</source>
        <translation>{gpu} 的单向链路带宽（目录值，双向 / 2）</translation>
    </message>
    <message>
        <source>unknown in the catalog</source>
        <translation>目录中未知</translation>
    </message>
    <message>
        <source>All-reduce over {n} GPUs: {bw:.1f} GB/s bus bandwidth, {pct:.0f}% of the {ref:.0f} GB/s reference ({what}). Check the interconnect (nvidia-smi topo -m) and NCCL settings.</source>
        <translation>{n} 张 GPU 上的 all-reduce：总线带宽 {bw:.1f} GB/s，为参考值 {ref:.0f} GB/s 的 {pct:.0f}%（{what}）。请检查互联（nvidia-smi topo -m）和 NCCL 设置。</translation>
    </message>
    <message>
        <source>All-reduce over {n} GPUs: {bw:.1f} GB/s bus bandwidth ({pct:.0f}% of the reference).</source>
        <translation>{n} 张 GPU 上的 all-reduce：总线带宽 {bw:.1f} GB/s（为参考值的 {pct:.0f}%）。</translation>
    </message>
    <message>
        <source>Scaling: {n} GPUs give {pct:.0f}% of linear speed-up over {n0}.</source>
        <translation>扩展性：{n} 张 GPU 相对 {n0} 张达到线性加速的 {pct:.0f}%。</translation>
    </message>
    <message>
        <source>Scaling: {pct:.0f}% of linear at {n} GPUs.</source>
        <translation>扩展性：{n} 张 GPU 时为线性的 {pct:.0f}%。</translation>
    </message>
    <message>
        <source>Measured MFU {pct}% at {n} GPU(s) (model FLOPs/token {fpt} × tokens/s per GPU ÷ {peak:g} TFLOPS peak). It is measured without the plan&apos;s tensor/pipeline communication and between-node traffic, so treat it as an upper bound when the plan spans nodes or uses tp/pp &gt; 1.</source>
        <translation>{n} 张 GPU 实测 MFU {pct}%（每 token 模型计算量 {fpt} × 单卡 token/s ÷ {peak:g} TFLOPS 峰值）。测量时不含方案中的张量/流水线通信和节点间通信，因此当方案跨节点或 tp/pp &gt; 1 时，应把它视为上限。</translation>
    </message>
    <message>
        <source>The kit trains all weights; the plan is {m}. Its MFU is applied as the share of peak the matmuls reach.</source>
        <translation>测试套件训练全部权重；方案为 {m}。其 MFU 按矩阵乘达到的峰值占比来套用。</translation>
    </message>
    <message>
        <source>MoE plan: the kit ran a dense MLP as wide as the active experts; routing and the expert all-to-all were not measured.</source>
        <translation>MoE 方案：测试套件运行的是与激活专家等宽的稠密 MLP；路由和专家全对全通信未被测量。</translation>
    </message>
    <message>
        <source> (averaged over the whole run, idle phases included)</source>
        <translation>（整个运行期间的平均值，含空闲阶段）</translation>
    </message>
    <message>
        <source>Power on GPU {gpus} averaged below 60% of the {tdp:.0f} W TDP under load{scope}. This only means something while the GPUs are loaded: check clocks and power caps if matmul is low too.</source>
        <translation>GPU {gpus} 负载下的平均功耗低于 {tdp:.0f} W TDP 的 60%{scope}。这只在 GPU 满载时才有意义：如果矩阵乘也偏低，请检查频率和功耗上限。</translation>
    </message>
    <message>
        <source>Power limit on GPU {gpus} is set to {lim:.0f} W, below the {tdp:.0f} W TDP: the cards are power-capped.</source>
        <translation>GPU {gpus} 的功耗上限设为 {lim:.0f} W，低于 {tdp:.0f} W TDP：这些卡被限功耗了。</translation>
    </message>
    <message>
        <source>train_step: the result has no training-step measurement to compute an MFU from</source>
        <translation>train_step：结果中没有可用来计算 MFU 的训练步测量</translation>
    </message>
    <message>
        <source>train_step: the measured MFU {pct:.0f}% exceeds 100% of peak; check the GPU in the plan</source>
        <translation>train_step：实测 MFU {pct:.0f}% 超过峰值的 100%；请检查方案中的 GPU 型号</translation>
    </message>
    <message>
        <source>not valid JSON (nested too deeply)</source>
        <translation>不是有效的 JSON（嵌套过深）</translation>
    </message>
    <message>
        <source>not valid JSON ({why})</source>
        <translation>不是有效的 JSON（{why}）</translation>
    </message>
</context>
<context>
    <name>Answer</name>
    <message>
        <source>By your goal ({goal}) the search&apos;s best plan is {n} × {gpu}: {span}, {cost:,.0f} {cur}, against {own_span}, {own_cost:,.0f} {cur} for this layout. Take it with “Use this layout” on the Plans page, or set Layout to “automatic (best found)” on the Training page.</source>
        <translation>按你的目标（{goal}），搜索的最佳方案是 {n} × {gpu}：{span}，{cost:,.0f} {cur}；此布局为 {own_span}，{own_cost:,.0f} {cur}。在“方案”页点“采用此布局”即可采用，或在“训练”页把“并行布局”设为“自动（取最优）”。</translation>
    </message>
</context>
<context>
    <name>Autosave</name>
    <message>
        <source>never saved</source>
        <translation>从未保存</translation>
    </message>
    <message>
        <source>Unreadable autosave from {when}: {error}</source>
        <translation>{when} 的自动保存无法读取：{error}</translation>
    </message>
    <message>
        <source>custom model</source>
        <translation>自定义模型</translation>
    </message>
    <message>
        <source>Untitled plan</source>
        <translation>未命名方案</translation>
    </message>
    <message>
        <source>{title} ({where}): {model}, {method}, {n} × {gpu}; autosaved {when}</source>
        <translation>{title}（{where}）：{model}，{method}，{n} × {gpu}；自动保存于 {when}</translation>
    </message>
    <message>
        <source>not an autosave id</source>
        <translation>不是自动保存 ID</translation>
    </message>
    <message>
        <source>cannot autosave ({why})</source>
        <translation>无法自动保存（{why}）</translation>
    </message>
    <message>
        <source>not an autosave file of this version</source>
        <translation>不是此版本的自动保存文件</translation>
    </message>
    <message>
        <source>cannot delete the autosave ({why})</source>
        <translation>无法删除自动保存（{why}）</translation>
    </message>
    <message>
        <source>cannot read this autosave ({why})</source>
        <translation>无法读取此自动保存文件（{why}）</translation>
    </message>
</context>
<context>
    <name>BudgetPage</name>
    <message>
        <source>the deadline must be after today</source>
        <translation>截止时间必须晚于今天</translation>
    </message>
    <message>
        <source>Time and budget</source>
        <translation>时间与预算</translation>
    </message>
    <message>
        <source>4 · Time and budget</source>
        <translation>4 · 时间与预算</translation>
    </message>
    <message>
        <source>When it must be done and what it may cost. The deadline sets the throughput the plans must reach; the budget caps what they may cost.</source>
        <translation>何时必须完成、最多能花多少钱。截止时间决定方案必须达到的吞吐量；预算限定方案的花费上限。</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Money and ranking</source>
        <translation>费用与排序</translation>
    </message>
    <message>
        <source>Deadline given as</source>
        <translation>截止时间形式</translation>
    </message>
    <message>
        <source>A number of days from now, a calendar date, or no deadline</source>
        <translation>从现在起的天数、一个日历日期，或不设截止时间</translation>
    </message>
    <message>
        <source>Deadline</source>
        <translation>截止时间</translation>
    </message>
    <message>
        <source>Calendar days from the start to the end of training</source>
        <translation>从训练开始到结束的日历天数</translation>
    </message>
    <message>
        <source>Deadline date</source>
        <translation>截止日期</translation>
    </message>
    <message>
        <source>The date training must be finished</source>
        <translation>训练必须完成的日期</translation>
    </message>
    <message>
        <source>Work pattern</source>
        <translation>使用模式</translation>
    </message>
    <message>
        <source>Continuous: the GPUs run around the clock; hours per week: only part of each week is usable</source>
        <translation>连续：GPU 全天候运行；每周小时数：每周只有部分时间可用</translation>
    </message>
    <message>
        <source>Hours per week</source>
        <translation>每周小时数</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Research validation favours short, flexible rentals; stable training long, cheap rentals; a burst the fastest plan</source>
        <translation>研究验证适合短期、灵活的租用；稳定训练适合长期、便宜的租用；冲刺则选最快的方案</translation>
    </message>
    <message>
        <source>Budget cap</source>
        <translation>预算上限</translation>
    </message>
    <message>
        <source>Plans that cost more are marked; empty = no cap</source>
        <translation>花费超出的方案会被标出；留空 = 不设上限</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <source>Prices are converted at the catalog&apos;s exchange rate when needed</source>
        <translation>必要时按目录中的汇率换算价格</translation>
    </message>
    <message>
        <source>Rank plans by</source>
        <translation>方案排序依据</translation>
    </message>
    <message>
        <source>Cheapest total cost, fastest finish, or best value (cost × time)</source>
        <translation>总成本最低、完成最快，或性价比最高（成本 × 时间）</translation>
    </message>
    <message>
        <source>Max GPUs</source>
        <translation>GPU 数上限</translation>
    </message>
    <message>
        <source>The largest GPU count the search considers</source>
        <translation>搜索时考虑的最大 GPU 数量</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天</translation>
    </message>
    <message>
        <source>h/week</source>
        <translation>小时/周</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>张卡</translation>
    </message>
    <message>
        <source>days from now</source>
        <translation>从现在起的天数</translation>
    </message>
    <message>
        <source>a date</source>
        <translation>指定日期</translation>
    </message>
    <message>
        <source>no deadline</source>
        <translation>无截止时间</translation>
    </message>
    <message>
        <source>continuous (24/7)</source>
        <translation>连续（7×24 小时）</translation>
    </message>
    <message>
        <source>hours per week</source>
        <translation>每周小时数</translation>
    </message>
    <message>
        <source>research validation</source>
        <translation>研究验证</translation>
    </message>
    <message>
        <source>stable training</source>
        <translation>稳定训练</translation>
    </message>
    <message>
        <source>burst</source>
        <translation>冲刺</translation>
    </message>
    <message>
        <source>cheapest</source>
        <translation>最便宜</translation>
    </message>
    <message>
        <source>fastest</source>
        <translation>最快</translation>
    </message>
    <message>
        <source>best value</source>
        <translation>性价比最高</translation>
    </message>
    <message>
        <source>Research validation: short runs to test an idea; pay by the hour, stop any time.</source>
        <translation>研究验证：短时间运行以验证想法；按小时付费，随时可停。</translation>
    </message>
    <message>
        <source>Stable training: a long, predictable run; weekly or monthly rent is usually cheaper.</source>
        <translation>稳定训练：长期、可预期的运行；按周或按月租用通常更便宜。</translation>
    </message>
    <message>
        <source>Burst: finish as soon as possible; more GPUs even at a worse price.</source>
        <translation>冲刺：尽快完成；即使价格更高也要用更多 GPU。</translation>
    </message>
    <message>
        <source>Finish by {0}: {1} usable hours per GPU.</source>
        <translation>须在 {0} 前完成：每张 GPU 可用 {1} 小时。</translation>
    </message>
    <message>
        <source>No deadline: plans are ranked by cost alone.</source>
        <translation>无截止时间：方案仅按成本排序。</translation>
    </message>
    <message>
        <source>Budget cap: {0} {1}.</source>
        <translation>预算上限：{0} {1}。</translation>
    </message>
    <message>
        <source>Rental mode</source>
        <translation>租用方式</translation>
    </message>
    <message>
        <source>Hours per week the cards can be used (168 = around the clock)</source>
        <translation>每周可使用这些卡的小时数（168 = 全天候）</translation>
    </message>
    <message>
        <source>Automatic: every plan is billed in its cheapest mode without interruptions (card-hours, whole machines per week or month, capped card-hours) and a cheaper spot price is shown beside it. A mode chosen here bills every plan; cards without a price in that mode are left out, with the reason</source>
        <translation>自动：每个方案按其最便宜的不会中断的方式计费（卡时、整机周租或月租、封顶卡时），更便宜的竞价价格列在旁边。在此选定的方式用于所有方案；没有该方式价格的卡型会被排除，并说明原因</translation>
    </message>
    <message>
        <source>automatic (without interruptions)</source>
        <translation>自动（不会中断）</translation>
    </message>
    <message>
        <source>no cap</source>
        <translation>不设上限</translation>
    </message>
</context>
<context>
    <name>CLI</name>
    <message>
        <source>rent</source>
        <translation>租用</translation>
    </message>
    <message>
        <source>build: {part}</source>
        <translation>自建：{part}</translation>
    </message>
    <message>
        <source>build total</source>
        <translation>自建合计</translation>
    </message>
    <message>
        <source>verdict: {v}</source>
        <translation>结论：{v}</translation>
    </message>
    <message>
        <source>build</source>
        <translation>自建</translation>
    </message>
    <message>
        <source>unknown (no purchase price)</source>
        <translation>未知（没有采购价）</translation>
    </message>
    <message>
        <source>break-even utilisation: {pct} of the hours over {years} years</source>
        <translation>盈亏平衡利用率：{years} 年内 {pct} 的时间在用</translation>
    </message>
    <message>
        <source>break-even utilisation: none (owning never pays off at these prices)</source>
        <translation>盈亏平衡利用率：无（按这些价格，自建永远不划算）</translation>
    </message>
    <message>
        <source>purchase price per server</source>
        <translation>每台服务器采购价</translation>
    </message>
    <message>
        <source>power per server (kW)</source>
        <translation>每台服务器功率（kW）</translation>
    </message>
    <message>
        <source>electricity tariff</source>
        <translation>电价</translation>
    </message>
    <message>
        <source>rack / colocation per month</source>
        <translation>每月机柜/托管费</translation>
    </message>
    <message>
        <source>operations staff per month</source>
        <translation>每月运维人力</translation>
    </message>
    <message>
        <source>spares per year</source>
        <translation>每年备件</translation>
    </message>
    <message>
        <source>depreciation years</source>
        <translation>折旧年限</translation>
    </message>
    <message>
        <source>not counted (enter your figures): {items}</source>
        <translation>未计入（请填写你的数字）：{items}</translation>
    </message>
    <message>
        <source>the following arguments are required: {args}</source>
        <translation>缺少必需的参数：{args}</translation>
    </message>
    <message>
        <source>unrecognized arguments: {args}</source>
        <translation>无法识别的参数：{args}</translation>
    </message>
    <message>
        <source>argument {arg}: {msg}</source>
        <translation>参数 {arg}：{msg}</translation>
    </message>
    <message>
        <source>expected a whole number from {lo} to {hi}, got {value}</source>
        <translation>应为 {lo} 到 {hi} 之间的整数，实际为 {value}</translation>
    </message>
    <message>
        <source>expected a whole number, got {value}</source>
        <translation>应为整数，实际为 {value}</translation>
    </message>
    <message>
        <source>expected a number &gt;= 1, got {value}</source>
        <translation>应为不小于 1 的数，实际为 {value}</translation>
    </message>
    <message>
        <source>expected at most {limit} characters, got {value}</source>
        <translation>最多 {limit} 个字符，实际为 {value} 个</translation>
    </message>
    <message>
        <source>invalid choice: {value} (choose from {choices})</source>
        <translation>无效的取值 {value}（可选：{choices}）</translation>
    </message>
    <message>
        <source>expected one argument</source>
        <translation>需要一个取值</translation>
    </message>
    <message>
        <source>unknown command {name} — did you mean {close}?</source>
        <translation>未知命令 {name}；你是不是要找 {close}？</translation>
    </message>
    <message>
        <source>unknown command {name} (commands: {names}; gpuplanner --help lists them)</source>
        <translation>未知命令 {name}（可用命令：{names}；gpuplanner --help 会列出它们）</translation>
    </message>
    <message>
        <source>{name} is a folder, not a plan file</source>
        <translation>{name} 是文件夹，不是方案文件</translation>
    </message>
    <message>
        <source>file not found: {name}</source>
        <translation>找不到文件：{name}</translation>
    </message>
    <message>
        <source>--lang goes with a command (gpuplanner COMMAND ... --lang zh_CN); the window&apos;s language: Settings → Language</source>
        <translation>--lang 要写在命令之后（gpuplanner 命令 ... --lang zh_CN）；窗口的语言在“设置 → 语言”中选择</translation>
    </message>
    <message>
        <source>estimate parameters, memory per GPU, time and cost for a scenario or plan</source>
        <translation>估算一个场景或方案的参数量、单卡显存、时间和费用</translation>
    </message>
    <message>
        <source>Estimate one plan: the scenario&apos;s own GPU, GPU count and parallel layout (a .gpuplan file: its selected plan). Prints the model&apos;s size, the memory per GPU and whether it fits, the training time and the rental cost; no search.</source>
        <translation>估算一个方案：场景自己的 GPU 型号、GPU 数量和并行布局（.gpuplan 文件：其中选定的方案）。输出模型规模、单卡显存及能否放下、训练时间和租用费用；不做搜索。</translation>
    </message>
    <message>
        <source>scenario JSON or .gpuplan file (its selected plan)</source>
        <translation>场景 JSON 或 .gpuplan 文件（其中选定的方案）</translation>
    </message>
    <message>
        <source>print a JSON object instead of a table</source>
        <translation>输出 JSON 对象，而不是表格</translation>
    </message>
    <message>
        <source>{span} around the clock, {hours} card-hours</source>
        <translation>全天候 {span}，{hours} 卡时</translation>
    </message>
    <message>
        <source>(tp: GPUs each layer&apos;s weights are split over; pp: pipeline stages; cp: GPUs each sequence is split over; ep: GPUs the experts are spread over; vpp: model chunks per pipeline stage; dp: copies of the model, each fed its own data; zero: ZeRO stage, what is split over the dp copies: 0 nothing, 1 optimizer states, 2 and gradients, 3 and weights; mbs: sequences per micro-batch; grad_accum: micro-batches added up before each weight update; recompute: activations recomputed in the backward pass instead of kept)</source>
        <translation>（tp：每层权重切分到的 GPU 数；pp：流水线段数；cp：每条序列切分到的 GPU 数；ep：专家分布到的 GPU 数；vpp：每个流水线段上的模型块数；dp：模型副本数，每个副本读入各自的数据；zero：ZeRO 阶段，即在 dp 个副本间切分什么：0 不切分，1 优化器状态，2 再加梯度，3 再加权重；mbs：每个微批次的序列数；grad_accum：每次更新权重前累加的微批次数；recompute：重计算，即反向传播时重新计算激活值，而不是保存它们）</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>reference model</source>
        <translation>参考模型</translation>
    </message>
    <message>
        <source>reward model</source>
        <translation>奖励模型</translation>
    </message>
    <message>
        <source>critic (value) model</source>
        <translation>评论家（价值）模型</translation>
    </message>
    <message>
        <source>rollout engine weights</source>
        <translation>采样引擎权重</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>total {total} ({exact})   active {active}   trainable {trainable}</source>
        <translation>总计 {total}（{exact}）   每 token 激活 {active}   可训练 {trainable}</translation>
    </message>
    <message>
        <source>   (vision encoder {v} + projector {pr})</source>
        <translation>   （视觉编码器 {v} + 投影层 {pr}）</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>档位</translation>
    </message>
    <message>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <source>{n} × {gpu} ({mem} GiB each, {nodes} node(s))</source>
        <translation>{n} × {gpu}（每卡 {mem} GiB，{nodes} 个节点）</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>(pipeline: {m} micro-batches of {n} per step)</source>
        <translation>（流水线：每步 {m} 个微批次，每个 {n} 条序列）</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>训练目标</translation>
    </message>
    <message>
        <source>{objective}: models held: {models}</source>
        <translation>{objective}：显存中的模型：{models}</translation>
    </message>
    <message>
        <source>Memory per GPU (GiB)</source>
        <translation>单卡显存（GiB）</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>DOES NOT FIT</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source> of {n} GiB</source>
        <translation>（共 {n} GiB）</translation>
    </message>
    <message>
        <source>host RAM</source>
        <translation>主机内存</translation>
    </message>
    <message>
        <source>per node for CPU offload{have} (optimizer {opt}, parameters {par}, × {buf} buffers; activations {act})</source>
        <translation>每节点用于 CPU 卸载{have}（优化器 {opt}，参数 {par}，× {buf} 个缓冲区；激活值 {act}）</translation>
    </message>
    <message>
        <source>PyTorch allocator: {a} GiB allocated, {r} GiB reserved (the total adds the CUDA context and NCCL buffers)</source>
        <translation>PyTorch 分配器：已分配 {a} GiB，已预留 {r} GiB（总量另含 CUDA 上下文和 NCCL 缓冲区）</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>step time</source>
        <translation>每步时间</translation>
    </message>
    <message>
        <source>{s} s</source>
        <translation>{s} 秒</translation>
    </message>
    <message>
        <source>tokens/s/GPU</source>
        <translation>每卡 token/s</translation>
    </message>
    <message>
        <source>MFU / HFU</source>
        <translation>MFU / HFU</translation>
    </message>
    <message>
        <source>(MFU: the share of the GPUs&apos; peak FLOP/s spent on the model&apos;s own math; HFU counts recomputed activations too)</source>
        <translation>（MFU：GPU 峰值 FLOP/s 中用于模型本身计算的比例；HFU 还计入重计算的激活值）</translation>
    </message>
    <message>
        <source>MFU, training</source>
        <translation>MFU（训练部分）</translation>
    </message>
    <message>
        <source>{mfu} of the training passes (rollout generation left out; the MFU grade and ceiling read it)</source>
        <translation>训练部分的 {mfu}（不计采样生成；MFU 评级和上限按它判断）</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>算力时间</translation>
    </message>
    <message>
        <source>calendar</source>
        <translation>日历时间</translation>
    </message>
    <message>
        <source>likely range</source>
        <translation>可能区间</translation>
    </message>
    <message>
        <source>(p10–p90 of the model&apos;s error on {n} published {family} runs)</source>
        <translation>（模型在 {n} 个已发表 {family} 训练上误差的 p10–p90）</translation>
    </message>
    <message>
        <source>{span} with setup, checkpoints, interruptions and {h} h/week</source>
        <translation>{span}（含环境准备、检查点、中断，每周 {h} 小时）</translation>
    </message>
    <message>
        <source>time share</source>
        <translation>时间占比</translation>
    </message>
    <message>
        <source>hidden</source>
        <translation>被掩盖</translation>
    </message>
    <message>
        <source>run under compute, not in the step time: {parts} of the step</source>
        <translation>与算力重叠、不计入步骤时间：{parts}（占步骤时间）</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>usage: </source>
        <translation>用法：</translation>
    </message>
    <message>
        <source>positional arguments</source>
        <translation>位置参数</translation>
    </message>
    <message>
        <source>options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>show this help message and exit</source>
        <translation>显示本帮助并退出</translation>
    </message>
    <message>
        <source>show program&apos;s version number and exit</source>
        <translation>显示程序版本号并退出</translation>
    </message>
    <message>
        <source>error: </source>
        <translation>错误：</translation>
    </message>
    <message>
        <source>GPU Planner: describe the training task, derive the GPU servers to rent. With no COMMAND it opens the desktop app (with FILE: that scenario or .gpuplan file).</source>
        <translation>GPU Planner：描述训练任务，推算出要租用的 GPU 服务器。不带 COMMAND 时打开桌面应用（带 FILE 时打开该场景或 .gpuplan 文件）。</translation>
    </message>
    <message>
        <source>Every COMMAND takes --lang en or --lang zh_CN, the language of its output and help (default: the app&apos;s setting, else the system locale). &apos;gpuplanner COMMAND --help&apos; describes a command.</source>
        <translation>每个 COMMAND 都接受 --lang en 或 --lang zh_CN，即其输出和帮助所用的语言（默认：应用中的设置，否则为系统区域设置）。“gpuplanner COMMAND --help”说明一个命令。</translation>
    </message>
    <message>
        <source>open the app&apos;s window, render every page, exit 0 (1 on a problem); no COMMAND</source>
        <translation>打开应用窗口，绘制每个页面后退出，返回 0（有问题时返回 1）；不带 COMMAND</translation>
    </message>
    <message>
        <source>+ {head} GiB kept free on top of the estimate = {need} of {cap} GiB: {fit}</source>
        <translation>+ 估算之外预留 {head} GiB = {need} / {cap} GiB：{fit}</translation>
    </message>
    <message>
        <source>No price: this layout does not fit in GPU memory, so it cannot be rented as it is.</source>
        <translation>不报价：此布局放不下 GPU 显存，不能按原样租用。</translation>
    </message>
    <message>
        <source>no price for this GPU: enter a quote</source>
        <translation>此 GPU 没有价格：请输入报价</translation>
    </message>
    <message>
        <source>Rent or build</source>
        <translation>租用还是自建</translation>
    </message>
    <message>
        <source>list the GPU catalog (dense TFLOPS, memory, links)</source>
        <translation>列出 GPU 目录（稠密 TFLOPS、显存、互联链路）</translation>
    </message>
    <message>
        <source>List the accelerators known to GPU Planner. TFLOPS are dense (no sparsity); &apos;unknown&apos; means the reference has no verified figure.</source>
        <translation>列出 GPU Planner 已知的加速卡。TFLOPS 为稠密算力（不含稀疏）；“未知”表示参考资料中没有经过核实的数值。</translation>
    </message>
    <message>
        <source>print the records as a JSON list</source>
        <translation>以 JSON 列表输出记录</translation>
    </message>
    <message>
        <source>check every card&apos;s health from nvidia-smi -q, npu-smi info, rocm-smi or dmesg output</source>
        <translation>根据 nvidia-smi -q、npu-smi info、rocm-smi 或 dmesg 的输出检查每张卡的健康状况</translation>
    </message>
    <message>
        <source>Temperatures, throttling, power caps vs TDP, ECC / retired pages / remapped rows, Xid errors, processes already on the cards, driver and CUDA versions; problems first.</source>
        <translation>温度、降频、功耗上限与 TDP 的对比、ECC / 退役页 / 重映射行、Xid 错误、卡上已有的进程、驱动和 CUDA 版本；问题排在最前。</translation>
    </message>
    <message>
        <source>saved output (nvidia-smi -q, npu-smi info, rocm-smi, dmesg), or -</source>
        <translation>保存下来的输出（nvidia-smi -q、npu-smi info、rocm-smi、dmesg），或 -（标准输入）</translation>
    </message>
    <message>
        <source>also read Xid errors from this kernel log</source>
        <translation>同时从这份内核日志中读取 Xid 错误</translation>
    </message>
    <message>
        <source>scenario JSON or .gpuplan file: its GPU is the expected card</source>
        <translation>场景 JSON 或 .gpuplan 文件：其中的 GPU 即应有的卡</translation>
    </message>
    <message>
        <source>the expected catalog GPU instead of a plan (e.g. h100-sxm-80gb)</source>
        <translation>不用方案，直接给出应有的目录 GPU（例如 h100-sxm-80gb）</translation>
    </message>
    <message>
        <source>print a JSON object</source>
        <translation>输出 JSON 对象</translation>
    </message>
    <message>
        <source>exit 1 when a finding is &apos;bad&apos;</source>
        <translation>有检查结果标为 [BAD]（严重问题）时以 1 退出</translation>
    </message>
    <message>
        <source>kernel log</source>
        <translation>内核日志</translation>
    </message>
    <message>
        <source>{tool}: {n} card(s)</source>
        <translation>{tool}：{n} 张卡</translation>
    </message>
    <message>
        <source>{tool}: {n} Xid event(s)</source>
        <translation>{tool}：{n} 个 Xid 事件</translation>
    </message>
    <message>
        <source>, driver {d}</source>
        <translation>，驱动 {d}</translation>
    </message>
    <message>
        <source>export the acceptance-test script for a rented server</source>
        <translation>为租到的服务器导出验收测试脚本</translation>
    </message>
    <message>
        <source>Write the self-contained acceptance-test script (bash + PyTorch) for the plan&apos;s GPU and model shape. Run it on the server, then &apos;gpuplanner kit-import&apos;.</source>
        <translation>按方案的 GPU 和模型形状写出独立的验收测试脚本（bash + PyTorch）。在服务器上运行它，然后运行“gpuplanner kit-import”。</translation>
    </message>
    <message>
        <source>scenario JSON or .gpuplan file</source>
        <translation>场景 JSON 或 .gpuplan 文件</translation>
    </message>
    <message>
        <source>output file (default: stdout)</source>
        <translation>输出文件（默认：标准输出）</translation>
    </message>
    <message>
        <source>export the multi-node kit for N nodes (torchrun; measures the network between nodes)</source>
        <translation>导出 N 个节点的多节点测试套件（torchrun；测量节点之间的网络）</translation>
    </message>
    <message>
        <source>instead of exporting: analyse this result (same as &apos;gpuplanner kit-import FILE RESULT.json&apos;)</source>
        <translation>不导出，改为分析这份结果（同“gpuplanner kit-import FILE RESULT.json”）</translation>
    </message>
    <message>
        <source>with --import: print a JSON object</source>
        <translation>与 --import 一起用：输出 JSON 对象</translation>
    </message>
    <message>
        <source>with --import: exit 1 when something is flagged bad</source>
        <translation>与 --import 一起用：有项目标为 [BAD]（严重问题）时以 1 退出</translation>
    </message>
    <message>
        <source>analyse an acceptance-test result and re-estimate with the measured MFU</source>
        <translation>分析验收测试结果，并用实测 MFU 重新估算</translation>
    </message>
    <message>
        <source>Compare the kit&apos;s JSON result with the plan and the catalog; show time and cost before and after using the measured MFU.</source>
        <translation>把测试套件的 JSON 结果与方案和目录对比；列出采用实测 MFU 前后的时间和费用。</translation>
    </message>
    <message>
        <source>the kit&apos;s result file</source>
        <translation>测试套件的结果文件</translation>
    </message>
    <message>
        <source>exit 1 when the analysis flags something as bad</source>
        <translation>分析中有项目标为 [BAD]（严重问题）时以 1 退出</translation>
    </message>
    <message>
        <source>--json and --strict go with --import RESULT.json</source>
        <translation>--json 和 --strict 须与 --import RESULT.json 一起使用</translation>
    </message>
    <message>
        <source>wrote {path}: copy it to the {n} nodes and run &apos;{cmd}&apos; for the command on each node</source>
        <translation>已写入 {path}：把它复制到 {n} 个节点，运行 &apos;{cmd}&apos; 查看每个节点要执行的命令</translation>
    </message>
    <message>
        <source>wrote {path}: run &apos;{cmd}&apos; on the server (&apos;--cpu&apos; for a quick check without GPUs)</source>
        <translation>已写入 {path}：在服务器上运行 &apos;{cmd}&apos;（加 &apos;--cpu&apos; 可在没有 GPU 时快速检查）</translation>
    </message>
    <message>
        <source>LOW</source>
        <translation>偏低</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>{host}: {n} GPU(s) {names}</source>
        <translation>{host}：{n} 张 GPU {names}</translation>
    </message>
    <message>
        <source>Versions</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>driver {d}, CUDA {c}, torch {t} ({mode})</source>
        <translation>驱动 {d}，CUDA {c}，torch {t}（{mode}）</translation>
    </message>
    <message>
        <source>Matmul</source>
        <translation>矩阵乘</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>All-reduce</source>
        <translation>All-reduce</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>参考值</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>扩展</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>线性</translation>
    </message>
    <message>
        <source>efficiency</source>
        <translation>效率</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <source>draw W</source>
        <translation>功耗 W</translation>
    </message>
    <message>
        <source>limit W</source>
        <translation>上限 W</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>before      after (measured MFU)</source>
        <translation>之前        之后（实测 MFU）</translation>
    </message>
    <message>
        <source>check the network between nodes from &apos;ibstat&apos; or &apos;ibv_devinfo&apos; output</source>
        <translation>根据“ibstat”或“ibv_devinfo”的输出检查节点之间的网络</translation>
    </message>
    <message>
        <source>Read pasted &apos;ibstat&apos;, &apos;ibv_devinfo [-v]&apos; or &apos;ibstatus&apos; output (a file, or - for stdin): per HCA port the link layer (InfiniBand or Ethernet = RoCE), state and rate, judged against the plan&apos;s inter-node network.</source>
        <translation>读取粘贴的“ibstat”、“ibv_devinfo [-v]”或“ibstatus”输出（文件，或用 - 表示标准输入）：逐个网卡端口列出链路层（InfiniBand 或 Ethernet 即 RoCE）、状态和速率，并对照方案的节点间网络判断。</translation>
    </message>
    <message>
        <source>saved output of ibstat / ibv_devinfo, or - for stdin</source>
        <translation>保存下来的 ibstat / ibv_devinfo 输出，或用 - 表示标准输入</translation>
    </message>
    <message>
        <source>print ports and verdict as JSON</source>
        <translation>以 JSON 输出端口和结论</translation>
    </message>
    <message>
        <source>scenario JSON or .gpuplan file: check against its network</source>
        <translation>场景 JSON 或 .gpuplan 文件：对照其中的网络检查</translation>
    </message>
    <message>
        <source>the promised network instead of a plan (e.g. ib-ndr-400, roce-400)</source>
        <translation>不用方案，直接给出承诺的网络（例如 ib-ndr-400、roce-400）</translation>
    </message>
    <message>
        <source>&apos;nvidia-smi topo -m&apos; output of the same node: NIC-to-GPU affinity</source>
        <translation>同一节点的“nvidia-smi topo -m”输出：网卡与 GPU 的亲和关系</translation>
    </message>
    <message>
        <source>plan: {n} × {name} per node ({source})</source>
        <translation>方案：每节点 {n} × {name}（{source}）</translation>
    </message>
    <message>
        <source>plan</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>search GPU types, counts and layouts; print the ranked plans to rent</source>
        <translation>搜索 GPU 型号、数量和并行布局；输出排好序的租用方案</translation>
    </message>
    <message>
        <source>how many plans to show (default 5)</source>
        <translation>显示多少个方案（默认 5）</translation>
    </message>
    <message>
        <source>ranking (default: the objective saved in the scenario file)</source>
        <translation>排序依据（默认：场景文件中保存的目标）</translation>
    </message>
    <message>
        <source>print the result as JSON</source>
        <translation>以 JSON 输出结果</translation>
    </message>
    <message>
        <source>This file asks for a service, not a training run:</source>
        <translation>此文件要的是推理服务，不是训练：</translation>
    </message>
    <message>
        <source>Below: the plans for the file&apos;s training scenario, a placeholder every plan file holds; it is not part of this request.</source>
        <translation>下面是此文件训练场景的方案：每个方案文件都带有这样一个占位场景，它不属于本次需求。</translation>
    </message>
    <message>
        <source>frameworks searched: {names}</source>
        <translation>搜索的框架：{names}</translation>
    </message>
    <message>
        <source>note: {text}</source>
        <translation>注：{text}</translation>
    </message>
    <message>
        <source>skipped: {name} ({gpu}): {reason}</source>
        <translation>未排名：{name}（{gpu}）：{reason}</translation>
    </message>
    <message>
        <source>good</source>
        <translation>良好</translation>
    </message>
    <message>
        <source>fair</source>
        <translation>一般</translation>
    </message>
    <message>
        <source>poor</source>
        <translation>偏低</translation>
    </message>
    <message>
        <source>optimistic</source>
        <translation>偏乐观</translation>
    </message>
    <message>
        <source>count</source>
        <translation>卡数</translation>
    </message>
    <message>
        <source>nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <source>zero</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>mbs</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>capped</source>
        <translation>已封顶</translation>
    </message>
    <message>
        <source>MFU (capped): the model gives more than the best published run of the plan&apos;s class reached; the plan is timed and costed at that run&apos;s figure (see the plan&apos;s utilisation line).</source>
        <translation>MFU（已封顶）：模型估算高于该方案同类最佳公开运行达到的值；方案按该运行的数值计算时间和成本（见方案的利用率一行）。</translation>
    </message>
    <message>
        <source>{i}. {n} × {gpu}: {days} in calendar time ({compute} of compute), {cost}</source>
        <translation>{i}. {n} × {gpu}：日历时间 {days}（算力 {compute}），{cost}</translation>
    </message>
    <message>
        <source>Time vs cost, the best trade-offs (no other plan is both faster and cheaper):</source>
        <translation>时间与费用的最佳权衡（没有别的方案既更快又更便宜）：</translation>
    </message>
    <message>
        <source>{n} × {gpu}: {span}, {cost}</source>
        <translation>{n} × {gpu}：{span}，{cost}</translation>
    </message>
    <message>
        <source>hours</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>the project: phases (CPU preprocessing, research, training, inference), one cost, the timeline and what-if growth</source>
        <translation>整个项目：各阶段（CPU 预处理、实验、训练、推理）、一个总费用、时间线和假设增长分析</translation>
    </message>
    <message>
        <source>Print the whole project of a .gpuplan file: each phase with its GPUs, time and cost, the project&apos;s one total, the timeline, and what growing the data or the model would cost. A scenario file is one phase.</source>
        <translation>输出 .gpuplan 文件中的整个项目：每个阶段的 GPU、时间和费用，项目的一个总价，时间线，以及数据或模型增长后的费用。场景文件只算一个阶段。</translation>
    </message>
    <message>
        <source>.gpuplan file (its project) or scenario JSON (one phase)</source>
        <translation>.gpuplan 文件（其中的项目）或场景 JSON（一个阶段）</translation>
    </message>
    <message>
        <source>{cost} over {w}</source>
        <translation>{cost}，共 {w}</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>compare vendors&apos; quote sheets for the plan, with the costs quotes leave out</source>
        <translation>针对方案比较各供应商的报价单，并计入报价中没有的费用</translation>
    </message>
    <message>
        <source>Read vendors&apos; quote sheets (.csv or .xlsx) and compare them for the plan: the price of the whole job per vendor, with the costs a quote leaves out (storage, data egress, setup, migration). Also writes the blank quote sheet to send out (--template) and the request for quote (--rfq).</source>
        <translation>读取各供应商的报价单（.csv 或 .xlsx），针对方案进行比较：每家供应商完成整个任务的价格，并计入报价中没有的费用（存储、出网流量、部署、迁移）。也可写出用于发给供应商的空白报价单（--template）和询价单（--rfq）。</translation>
    </message>
    <message>
        <source>.gpuplan file or scenario JSON</source>
        <translation>.gpuplan 文件或场景 JSON</translation>
    </message>
    <message>
        <source>quote sheets (.csv or .xlsx); default: the plan&apos;s</source>
        <translation>报价单（.csv 或 .xlsx）；默认：方案中存的报价</translation>
    </message>
    <message>
        <source>print the comparison as JSON</source>
        <translation>以 JSON 输出比较结果</translation>
    </message>
    <message>
        <source>write the blank, documented quote sheet</source>
        <translation>写出带说明的空白报价单</translation>
    </message>
    <message>
        <source>file to write (with --template)</source>
        <translation>要写入的文件（与 --template 一起用）</translation>
    </message>
    <message>
        <source>store the sheets&apos; quotes in the plan file (a vendor&apos;s new sheet replaces its stored one; the other vendors are kept)</source>
        <translation>把报价单中的报价存入方案文件（某供应商的新报价单替换其已存的报价；其他供应商的保留）</translation>
    </message>
    <message>
        <source>write the one-page request for quote (PDF)</source>
        <translation>写出一页的询价单（请求报价，PDF）</translation>
    </message>
    <message>
        <source>--template needs -o FILE</source>
        <translation>--template 需要 -o 文件</translation>
    </message>
    <message>
        <source>quotes needs a plan FILE (or --template)</source>
        <translation>quotes（报价）命令需要一个方案文件（或 --template）</translation>
    </message>
    <message>
        <source>no quotes: give quote sheets (.csv/.xlsx) or store them in the plan</source>
        <translation>没有报价：请给出报价单（.csv/.xlsx），或把报价存入方案</translation>
    </message>
    <message>
        <source>--save needs a .gpuplan file</source>
        <translation>--save 需要 .gpuplan 文件</translation>
    </message>
    <message>
        <source>write the printed plan (PDF) for a scenario or .gpuplan file</source>
        <translation>为场景或 .gpuplan 文件写出可打印的方案（PDF）</translation>
    </message>
    <message>
        <source>Write the plan as a PDF to print or send: the chosen plan and the ranked alternatives with their memory, time and cost, on A4 or letter paper, in the language of --lang; runs without a display.</source>
        <translation>把方案写成可打印或发送的 PDF：选定的方案和排好序的备选方案，及其显存、时间和费用；纸张为 A4 或美国信纸，语言按 --lang；无需显示器即可运行。</translation>
    </message>
    <message>
        <source>PDF file to write</source>
        <translation>要写入的 PDF 文件</translation>
    </message>
    <message>
        <source>report language (default: the app&apos;s setting, else the system locale)</source>
        <translation>报告语言（默认：应用中的设置，否则为系统区域设置）</translation>
    </message>
    <message>
        <source>paper size (default a4)</source>
        <translation>纸张大小（默认 a4）</translation>
    </message>
    <message>
        <source>author/team for the title block (default: the app&apos;s setting)</source>
        <translation>标题栏中的作者或团队（默认：应用中的设置）</translation>
    </message>
    <message>
        <source>check a rented server&apos;s GPU interconnect from &apos;nvidia-smi topo -m&apos; output</source>
        <translation>根据“nvidia-smi topo -m”的输出检查租到的服务器的 GPU 互联</translation>
    </message>
    <message>
        <source>Read &apos;nvidia-smi topo -m&apos; output (a file, or - for stdin) and explain what it means for tensor parallelism, NUMA and NIC placement.</source>
        <translation>读取“nvidia-smi topo -m”的输出（文件，或用 - 表示标准输入），并说明它对张量并行、NUMA 和网卡位置意味着什么。</translation>
    </message>
    <message>
        <source>saved output of &apos;nvidia-smi topo -m&apos;, or - for stdin</source>
        <translation>保存下来的“nvidia-smi topo -m”输出，或用 - 表示标准输入</translation>
    </message>
    <message>
        <source>print the diagnosis as JSON</source>
        <translation>以 JSON 输出诊断结果</translation>
    </message>
    <message>
        <source>the plan&apos;s tensor-parallel size to check</source>
        <translation>要检查的方案张量并行规模</translation>
    </message>
    <message>
        <source>the plan&apos;s total GPU count (multi-node if larger)</source>
        <translation>方案的 GPU 总数（大于单机卡数即为多节点）</translation>
    </message>
    <message>
        <source>exit 1 when a verdict line is &apos;bad&apos;</source>
        <translation>有结论行标为 [BAD]（严重问题）时以 1 退出</translation>
    </message>
    <message>
        <source>cost ({currency})</source>
        <translation>费用（{currency}）</translation>
    </message>
    <message>
        <source>language of the output (default: the app&apos;s setting, else the system locale)</source>
        <translation>输出所用的语言（默认：应用中的设置，否则为系统区域设置）</translation>
    </message>
    <message>
        <source>card-hours</source>
        <translation>卡时</translation>
    </message>
    <message>
        <source>(cost = card-hours × {price} per card-hour, no overheads)</source>
        <translation>（费用 = 卡时 × 每卡时 {price}，不含其他开销）</translation>
    </message>
    <message>
        <source>with --network: NICs per node on the network between GPUs (not storage or management)</source>
        <translation>与 --network 一起用：每个节点接入 GPU 间网络的网卡数（不含存储和管理网卡）</translation>
    </message>
    <message>
        <source>Search every candidate GPU type × GPU count × parallel layout that fits in memory, estimate time and rental cost, and rank them by the objective: cheapest meeting the deadline, fastest within the budget, or lowest cost per PFLOP of useful work (the FLOPs the model needs, not the GPUs&apos; peak).</source>
        <translation>搜索显存放得下的每一种 GPU 型号 × GPU 数量 × 并行布局组合，估算时间和租用费用，并按目标排序：满足截止时间的最便宜方案、预算内最快的方案，或每 PFLOP 有效计算量费用最低的方案（有效计算量指模型所需的浮点运算量，而不是 GPU 的峰值）。</translation>
    </message>
    <message>
        <source>{n} candidates evaluated, {fit} fit and are priced ({time}); objective: {objective}</source>
        <translation>评估了 {n} 个候选，{fit} 个放得下且有价格（{time}）；目标：{objective}</translation>
    </message>
    <message>
        <source>rental mode</source>
        <translation>租用方式</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>未通过</translation>
    </message>
    <message>
        <source>Rent or build ({n} × {gpu}): {sentence}</source>
        <translation>租用还是自建（{n} × {gpu}）：{sentence}</translation>
    </message>
    <message>
        <source>cheapest meeting the deadline</source>
        <translation>满足截止时间的最低费用</translation>
    </message>
    <message>
        <source>fastest within the budget</source>
        <translation>预算内最快</translation>
    </message>
    <message>
        <source>lowest cost per effective PFLOP</source>
        <translation>每有效 PFLOP 费用最低</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>无价格</translation>
    </message>
    <message>
        <source>per core-hour</source>
        <translation>按核时</translation>
    </message>
    <message>
        <source>CPU nodes per month</source>
        <translation>CPU 节点按月</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>weeks</source>
        <translation>周</translation>
    </message>
    <message>
        <source>h/week</source>
        <translation>小时/周</translation>
    </message>
    <message>
        <source>resources</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>rental</source>
        <translation>租用方式</translation>
    </message>
    <message>
        <source>cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>{nodes} node(s), {n} cores</source>
        <translation>{nodes} 个节点，{n} 核</translation>
    </message>
    <message>
        <source>calendar time</source>
        <translation>日历时间</translation>
    </message>
    <message>
        <source>CPU: {gb} GB at {rate} MB/s per core = {h} core-hours</source>
        <translation>CPU：{gb} GB，每核 {rate} MB/s = {h} 核时</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>By rental</source>
        <translation>按租用方式</translation>
    </message>
    <message>
        <source>Overlap</source>
        <translation>并行阶段</translation>
    </message>
    <message>
        <source>Rent/build</source>
        <translation>租用/自建</translation>
    </message>
    <message>
        <source>2× parameters</source>
        <translation>参数量 ×2</translation>
    </message>
    <message>
        <source>10× data</source>
        <translation>数据量 ×10</translation>
    </message>
    <message>
        <source>next GPU count</source>
        <translation>下一档 GPU 数</translation>
    </message>
    <message>
        <source>What if ({phase})</source>
        <translation>假设分析（{phase}）</translation>
    </message>
    <message>
        <source>change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>in place</source>
        <translation>原地升级</translation>
    </message>
    <message>
        <source>layout changes</source>
        <translation>布局变化</translation>
    </message>
    <message>
        <source>break-even utilisation: unknown (no purchase price)</source>
        <translation>盈亏平衡利用率：未知（没有采购价）</translation>
    </message>
    <message>
        <source>{path}: a folder; give -o a file name</source>
        <translation>{path}：这是文件夹；请给 -o 一个文件名</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>MFU of an RL plan: the whole step, rollout generation included (in brackets: its training passes, which the grade is of).</source>
        <translation>强化学习方案的 MFU：整个训练步，含采样生成（括号内：训练阶段的 MFU，评级依据它）。</translation>
    </message>
    <message>
        <source>in one node</source>
        <translation>节点内</translation>
    </message>
    <message>
        <source>across nodes</source>
        <translation>跨节点</translation>
    </message>
    <message>
        <source>one GPU per node</source>
        <translation>每节点一张 GPU</translation>
    </message>
    <message>
        <source>every GPU</source>
        <translation>全部 GPU</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>{nodes} node(s) × {per} ({device}, {backend}), torch {torch}</source>
        <translation>{nodes} 个节点 × 每节点 {per} 张（{device}，{backend}），torch {torch}</translation>
    </message>
    <message>
        <source>Plan network</source>
        <translation>方案网络</translation>
    </message>
    <message>
        <source>{network} × {n} per node</source>
        <translation>每节点 {n} × {network}</translation>
    </message>
    <message>
        <source>Transport</source>
        <translation>传输方式</translation>
    </message>
    <message>
        <source>Intra-node</source>
        <translation>节点内</translation>
    </message>
    <message>
        <source>all-reduce bus bandwidth {bw} GB/s</source>
        <translation>all-reduce 总线带宽 {bw} GB/s</translation>
    </message>
    <message>
        <source>Inter-node</source>
        <translation>节点间</translation>
    </message>
    <message>
        <source>Op probe</source>
        <translation>算子探测</translation>
    </message>
    <message>
        <source>{ops} operators on {device}, {failed} failed, {cpu} on CPU</source>
        <translation>{device} 上 {ops} 个算子，{failed} 个失败，{cpu} 个回退到 CPU</translation>
    </message>
    <message>
        <source>Plan with the measured network (= {n} × {network} per node)</source>
        <translation>按实测网络重新估算的方案（相当于每节点 {n} × {network}）</translation>
    </message>
    <message>
        <source>{scope}: all-reduce {size} MiB, bus bandwidth {bw} GB/s (runs {runs}); NICs {nics} GB/s, plan {plan} GB/s</source>
        <translation>{scope}：all-reduce {size} MiB，总线带宽 {bw} GB/s（各次 {runs}）；网卡 {nics} GB/s，方案 {plan} GB/s</translation>
    </message>
    <message>
        <source>scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/s</translation>
    </message>
    <message>
        <source>before</source>
        <translation>之前</translation>
    </message>
    <message>
        <source>after</source>
        <translation>之后</translation>
    </message>
    <message>
        <source>{days}, {cost}</source>
        <translation>{days}，{cost}</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>GPU id</source>
        <translation>GPU 标识</translation>
    </message>
    <message>
        <source>rule ids failed</source>
        <translation>未通过的规则（标识）</translation>
    </message>
    <message>
        <source>{mode} (as set)</source>
        <translation>{mode}（按设定）</translation>
    </message>
</context>
<context>
    <name>Calibration</name>
    <message>
        <source>Measured on the CPU (a smoke test of the kit): shown, never applied to a plan.</source>
        <translation>在 CPU 上测得（测试套件的冒烟测试）：仅显示，绝不用于方案。</translation>
    </message>
    <message>
        <source>Measured on {measured}, not on {gpu}: it does not change plans on {gpu}.</source>
        <translation>测量是在 {measured} 上进行的，而不是 {gpu}：它不会改变 {gpu} 上的方案。</translation>
    </message>
    <message>
        <source>Switched off: not applied.</source>
        <translation>已关闭：未采用。</translation>
    </message>
</context>
<context>
    <name>ChartBase</name>
    <message>
        <source>The chart could not be drawn as an image.</source>
        <translation>无法把图表绘制成图像。</translation>
    </message>
    <message>
        <source>Export chart as PNG</source>
        <translation>将图表导出为 PNG</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图片 (*.png)</translation>
    </message>
    <message>
        <source>Cannot export the chart</source>
        <translation>无法导出图表</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export this chart as a PNG image</source>
        <translation>将此图表导出为 PNG 图片</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
</context>
<context>
    <name>Checklist</name>
    <message>
        <source>Framework and operator compatibility checked first (domestic accelerators)</source>
        <translation>先确认框架和算子兼容性（国产加速卡）</translation>
    </message>
    <message>
        <source>Domestic accelerators (Ascend, Kunlun, Hygon, Cambricon …) run PyTorch through vendor plug-ins (torch_npu and similar). Missing or slow operators — FlashAttention variants, fused optimizers, custom kernels — can stop a training job or halve its speed. Run your own training script on the vendor&apos;s software stack before anything else on this list.</source>
        <translation>国产加速卡（昇腾、昆仑芯、海光、寒武纪 …）通过厂商插件（torch_npu 等）运行 PyTorch。缺失或低效的算子——FlashAttention 的各种变体、融合优化器、自定义 kernel——可能让训练任务跑不起来或速度减半。在核对本清单其他各项之前，先在厂商的软件栈上跑通你自己的训练脚本。</translation>
    </message>
    <message>
        <source>Real GPU stock, not “schedulable” capacity</source>
        <translation>真实的 GPU 现货，而非“可调度”容量</translation>
    </message>
    <message>
        <source>Ask for cards that exist and are free for your dates. &quot;Schedulable&quot; or pooled capacity can mean the cards appear only when another customer leaves, so a job that needs all GPUs at once may wait or start on fewer.</source>
        <translation>要求提供实际存在、且在你的使用时段空闲的卡。“可调度”或资源池容量可能意味着要等别的客户释放后才有卡，需要同时用上所有 GPU 的任务可能要排队，或只能用更少的卡启动。</translation>
    </message>
    <message>
        <source>Hardware failure SLA and free spare swap</source>
        <translation>硬件故障 SLA 与免费备件更换</translation>
    </message>
    <message>
        <source>GPUs, NICs and memory fail during long runs (Meta counted 419 unexpected interruptions in 54 days on 16,384 H100s, Llama 3 report §3.3.4). Get in writing how fast a failed card or node is replaced, that the replacement is free, and whether the lost time is credited.</source>
        <translation>长时间训练中 GPU、网卡和内存都会出故障（Meta 在 16,384 张 H100 上 54 天内记录了 419 次意外中断，见 Llama 3 报告 §3.3.4）。请书面约定故障卡或节点多快更换、更换是否免费，以及损失的时间是否补偿。</translation>
    </message>
    <message>
        <source>Data isolation: VPC or bare metal; does data leave the region?</source>
        <translation>数据隔离：VPC 还是裸金属；数据是否出境/出区域？</translation>
    </message>
    <message>
        <source>Training data and checkpoints are often confidential or regulated. Confirm that the machines are bare metal or in your own VPC, that storage is not shared with other tenants, and where the data is stored and backed up (cross-border transfer rules may apply).</source>
        <translation>训练数据和检查点往往涉密或受监管。请确认机器是裸金属或位于你自己的 VPC 中、存储不与其他租户共享，以及数据存放和备份在哪里（可能涉及数据跨境规定）。</translation>
    </message>
    <message>
        <source>IDC/ISP licence (check it on the MIIT site)</source>
        <translation>IDC/ISP 许可证（在工信部网站核查）</translation>
    </message>
    <message>
        <source>In mainland China, renting out servers and bandwidth needs an IDC (and ISP) value-added telecom licence. Look the licence number up on the MIIT telecom-licence query platform; an unlicensed reseller can be shut down mid-run.</source>
        <translation>在中国大陆，出租服务器和带宽需要 IDC（及 ISP）增值电信业务经营许可证。请在工信部电信业务经营许可查询平台核查许可证编号；无证转售商可能在训练中途被关停。</translation>
    </message>
    <message>
        <source>Images/snapshots and persistent data disks for resume</source>
        <translation>用于断点续训的镜像/快照和持久化数据盘</translation>
    </message>
    <message>
        <source>If the environment and checkpoints survive a release of the machine, a stopped job resumes in minutes instead of re-installing drivers and re-copying data. Ask whether system images can be saved and data disks kept (and what they cost) between rentals.</source>
        <translation>如果释放机器后环境和检查点还能保留，停掉的任务几分钟就能恢复，而不必重装驱动、重新拷贝数据。请询问两次租用之间能否保存系统镜像、保留数据盘（以及费用）。</translation>
    </message>
    <message>
        <source>In-place upgrade (4 → 8 cards) without migration</source>
        <translation>原地扩容（4 → 8 卡）无需迁移</translation>
    </message>
    <message>
        <source>Starting small and growing is cheaper only if more cards can be added to the same machine or cluster without moving data and rebuilding the environment.</source>
        <translation>只有能在同一台机器或同一集群上加卡、而不必搬数据和重建环境时，先小规模起步再扩容才更省钱。</translation>
    </message>
    <message>
        <source>Pre-configured frameworks (DeepSpeed, Megatron-LM, vLLM)</source>
        <translation>预装框架（DeepSpeed、Megatron-LM、vLLM）</translation>
    </message>
    <message>
        <source>Matching driver, CUDA, NCCL and framework versions take time to get right; a tested image saves paid hours. Check the versions against what your code needs.</source>
        <translation>驱动、CUDA、NCCL 和框架版本配套很费时间；经过验证的镜像能省下付费机时。请对照你的代码需求核对版本。</translation>
    </message>
    <message>
        <source>Interconnect actually dedicated (NVLink, InfiniBand/RoCE not shared)</source>
        <translation>互联确为独享（NVLink、InfiniBand/RoCE 不共享）</translation>
    </message>
    <message>
        <source>Tensor parallelism needs NVLink inside the node and multi-node jobs need the promised NICs per node. A shared or oversubscribed network turns into all-reduce time. Check nvidia-smi topo -m and the kit&apos;s all-reduce bandwidth.</source>
        <translation>张量并行需要节点内的 NVLink，多节点任务需要每节点承诺数量的网卡。共享或超分的网络会变成 all-reduce 耗时。请检查 nvidia-smi topo -m 以及测试套件测出的 all-reduce 带宽。</translation>
    </message>
    <message>
        <source>A short paid trial with your own script</source>
        <translation>用你自己的脚本做一次短时付费试用</translation>
    </message>
    <message>
        <source>A few hours on the exact machine type, running GPU Planner&apos;s acceptance kit and your own training step, shows the real MFU, bandwidth and power before you commit to weeks or months.</source>
        <translation>在完全相同的机型上花几个小时，运行 GPU Planner 的验收测试套件和你自己的训练步骤，就能在签下数周或数月之前看到真实的 MFU、带宽和功耗。</translation>
    </message>
    <message>
        <source>Host RAM per server for CPU offload, in the quote</source>
        <translation>报价中写明每台服务器的主机内存（供 CPU 卸载）</translation>
    </message>
    <message>
        <source>This plan keeps optimizer states (or weights) in the servers&apos; CPU memory. A server with less host RAM than the plan&apos;s requirements name cannot run it: the job fails when it allocates its pinned buffers. Get the host RAM per server written into the quote, and check it on the machine (free -g; the acceptance kit reads it).</source>
        <translation>此方案把优化器状态（或权重）放在服务器的 CPU 内存中。主机内存少于方案要求的服务器跑不了它：任务在分配锁页缓冲时就会失败。请把每台服务器的主机内存写进报价，并在机器上核对（free -g；验收脚本也会读取）。</translation>
    </message>
</context>
<context>
    <name>Cli</name>
    <message>
        <source>the input is too large or nested too deeply</source>
        <translation>输入过大或嵌套过深</translation>
    </message>
</context>
<context>
    <name>Cost</name>
    <message>
        <source>card-hours on demand</source>
        <translation>按需卡时</translation>
    </message>
    <message>
        <source>spot card-hours</source>
        <translation>竞价卡时</translation>
    </message>
    <message>
        <source>whole machines per week</source>
        <translation>整机周租</translation>
    </message>
    <message>
        <source>whole machines per month</source>
        <translation>整机月租</translation>
    </message>
    <message>
        <source>card-hours with a weekly cap</source>
        <translation>按周封顶的卡时计费</translation>
    </message>
    <message>
        <source>card-hours with a monthly cap</source>
        <translation>按月封顶的卡时计费</translation>
    </message>
    <message>
        <source>currency must be CNY or USD</source>
        <translation>币种必须是 CNY 或 USD</translation>
    </message>
    <message>
        <source>the exchange rate must be a positive number</source>
        <translation>汇率必须是正数</translation>
    </message>
    <message>
        <source>no CNY/USD exchange rate set; enter one to convert prices</source>
        <translation>未设置人民币/美元汇率；请填写汇率以换算价格</translation>
    </message>
    <message>
        <source>your quote</source>
        <translation>你的报价</translation>
    </message>
    <message>
        <source>per card-hour, on demand</source>
        <translation>按卡时、按需</translation>
    </message>
    <message>
        <source>per node-hour, on demand</source>
        <translation>按节点小时、按需</translation>
    </message>
    <message>
        <source>per card-hour, spot</source>
        <translation>按卡时、竞价</translation>
    </message>
    <message>
        <source>per node-hour, spot</source>
        <translation>按节点小时、竞价</translation>
    </message>
    <message>
        <source>per card-hour with a weekly commitment</source>
        <translation>按卡时报价、需包周</translation>
    </message>
    <message>
        <source>per node-hour with a weekly commitment</source>
        <translation>按节点小时报价、需包周</translation>
    </message>
    <message>
        <source>per card-week</source>
        <translation>按卡周</translation>
    </message>
    <message>
        <source>per node-week</source>
        <translation>按节点周</translation>
    </message>
    <message>
        <source>per card-hour with a monthly commitment</source>
        <translation>按卡时报价、需包月</translation>
    </message>
    <message>
        <source>per node-hour with a monthly commitment</source>
        <translation>按节点小时报价、需包月</translation>
    </message>
    <message>
        <source>per card-month</source>
        <translation>按卡月</translation>
    </message>
    <message>
        <source>a whole node leased per month</source>
        <translation>整个节点按月租赁</translation>
    </message>
    <message>
        <source>{mode}: {cost:,.0f} {cur}; the next best, {other}, would cost {other_cost:,.0f} {cur}.</source>
        <translation>{mode}：{cost:,.0f} {cur}；次优的{other}需要 {other_cost:,.0f} {cur}。</translation>
    </message>
    <message>
        <source>A whole machine per week pays off above {x:.0f} hours of use per week; you plan {h:.0f}.</source>
        <translation>每周使用超过 {x:.0f} 小时时整机周租更划算；你计划每周 {h:.0f} 小时。</translation>
    </message>
    <message>
        <source>At these quotes a whole machine per month never beats card-hours (it would need {x:.0f} hours of use per week, more than the week has; the planning guide&apos;s rule of thumb says about {rule:.0f}).</source>
        <translation>按这些报价，整机月租永远不如按卡时计费（需要每周使用 {x:.0f} 小时，超过一周的总时数；规划指南的经验法则约为 {rule:.0f} 小时）。</translation>
    </message>
    <message>
        <source>At these prices a whole machine per week never beats card-hours (it would need {x:.0f} hours per week).</source>
        <translation>按这些价格，整机周租永远不如按卡时计费（需要每周 {x:.0f} 小时）。</translation>
    </message>
    <message>
        <source>No card-hour quote for {gpu}: its price is {basis}, so only that is billed; enter an hourly quote to compare card-hours.</source>
        <translation>{gpu} 没有卡时报价：它的价格是{basis}，只能按此计费；输入按小时的报价才能比较卡时。</translation>
    </message>
    <message>
        <source>No weekly/monthly quote for {gpu}: derived from the hourly price without a discount; ask the vendor, monthly contracts are usually cheaper.</source>
        <translation>{gpu} 没有周租/月租报价：按小时价格推算，未计折扣；请询问供应商，月租合同通常更便宜。</translation>
    </message>
    <message>
        <source>Burst: rent elastic on-demand capacity and confirm the vendor can supply {n} cards at once.</source>
        <translation>冲刺：租用弹性的按需资源，并确认供应商能一次提供 {n} 张卡。</translation>
    </message>
    <message>
        <source>Research phase: start/stop sessions favour card-hours; each fresh start pays setup and data migration, counted here.</source>
        <translation>研究阶段：频繁启停适合按卡时计费；每次重新开始都要付出环境搭建和数据迁移的开销，已计入此处。</translation>
    </message>
    <message>
        <source>Default price for {gpu} ({source}, {date}): replace it with your quote.</source>
        <translation>{gpu} 的默认价格（{source}，{date}）：请替换为你拿到的报价。</translation>
    </message>
    <message>
        <source>Owning breaks even when the servers are busy {u} of the time over {y} years (straight-line depreciation, no resale value).</source>
        <translation>服务器在 {y} 年内有 {u} 的时间处于忙碌状态时，自有与租用持平（直线法折旧，不计残值）。</translation>
    </message>
    <message>
        <source>Whether owning breaks even is unknown without a purchase price.</source>
        <translation>没有采购价，无法判断自有能否与租用持平。</translation>
    </message>
    <message>
        <source>hardware (purchase and depreciation)</source>
        <translation>硬件（购置与折旧）</translation>
    </message>
    <message>
        <source>rack / colocation</source>
        <translation>机柜/托管</translation>
    </message>
    <message>
        <source>electricity (with PUE)</source>
        <translation>电费（含 PUE）</translation>
    </message>
    <message>
        <source>operations staff</source>
        <translation>运维人员</translation>
    </message>
    <message>
        <source>spares</source>
        <translation>备件</translation>
    </message>
    <message>
        <source>For this job alone ({days}) renting costs {rent}; buying and running {servers} for it costs {build}.</source>
        <translation>仅这一个任务（{days}）：租用需 {rent}；为它购买并运行 {servers}需 {build}。</translation>
    </message>
    <message>
        <source>Over {span} ({work}) renting costs {rent}; buying and running {servers} costs {build}.</source>
        <translation>{span}内（{work}）租用需 {rent}；购买并运行 {servers}需 {build}。</translation>
    </message>
    <message>
        <source>Over {span} ({jobs} job(s) like this) renting costs {rent}; buying and running {servers} costs {build}.</source>
        <translation>{span}内（{jobs} 个同类任务）租用需 {rent}；购买并运行 {servers}需 {build}。</translation>
    </message>
    <message>
        <source>Build: the purchase pays for itself after {be:.1f} months.</source>
        <translation>建议自建：购买在 {be:.1f} 个月后回本。</translation>
    </message>
    <message>
        <source>Build: owning is cheaper over this period.</source>
        <translation>建议自建：在这段时间内自有更便宜。</translation>
    </message>
    <message>
        <source>Rent: owning only pays off if the machines are busy at least {u:.0%} of the time over {years:g} years.</source>
        <translation>建议租用：只有机器在 {years:g} 年内至少 {u:.0%} 的时间处于忙碌状态，自有才划算。</translation>
    </message>
    <message>
        <source>Rent: at these prices owning never pays off, even with the machines busy all the time.</source>
        <translation>建议租用：按这些价格，即使机器一直满负荷，自有也永远不划算。</translation>
    </message>
    <message>
        <source>{head} {tail}</source>
        <translation>{head}{tail}</translation>
    </message>
    <message>
        <source>list price</source>
        <translation>公开标价</translation>
    </message>
    <message>
        <source>marketplace lowest seller</source>
        <translation>市场最低卖家价</translation>
    </message>
    <message>
        <source>provider&apos;s package</source>
        <translation>平台套餐</translation>
    </message>
    <message>
        <source>wholesale whole-server rent</source>
        <translation>批发整机租金</translation>
    </message>
    <message>
        <source>stated assumption (not a quote)</source>
        <translation>文献中的假设价格（不是报价）</translation>
    </message>
    <message>
        <source>converted foreign quote</source>
        <translation>换算的境外报价</translation>
    </message>
    <message>
        <source>A whole machine per month pays off above {x:.0f} hours of use per week at these quotes (the planning guide&apos;s rule of thumb says about {rule:.0f}); your work pattern is {h:.0f} hours a week.</source>
        <translation>按这些报价，每周使用超过 {x:.0f} 小时时整机月租才划算（规划指南的经验法则约为 {rule:.0f} 小时）；你的工作模式为每周 {h:.0f} 小时。</translation>
    </message>
    <message>
        <source>Billed on {mode} at the default price for {gpu} ({source}, {date}): your quote does not give that price. Enter it, or set the rental mode (constraints.rental_mode) to the one you rent.</source>
        <translation>以{mode}计费，用的是 {gpu} 的默认价格（{source}，{date}）：你的报价里没有这一项。请填入该价格，或在“时间与预算”页把租用方式设为你实际租用的方式。</translation>
    </message>
    <message>
        <source>The comparisons with {modes} use the default price for {gpu} ({source}, {date}): your quote does not give it.</source>
        <translation>与{modes}的比较用的是 {gpu} 的默认价格（{source}，{date}）：你的报价里没有这一项。</translation>
    </message>
    <message>
        <source>{a} and {b}</source>
        <translation>{a}和{b}</translation>
    </message>
    <message>
        <source>{a}, {b} and {c}</source>
        <translation>{a}、{b}和{c}</translation>
    </message>
    <message>
        <source>Burst: this plan is billed on {mode}, a lease, not elastic capacity; a burst needs on-demand card-hours: ask the vendor for an hourly quote and real-time scale-out to {n} cards, or rent an elastic plan named here.</source>
        <translation>突发扩容：此方案的计费方式为{mode}，属于租约，不是弹性算力；突发扩容需要按需卡时：请向供应商询问按小时报价，并确认能实时扩容到 {n} 张卡，或改租这里列出的弹性方案。</translation>
    </message>
    <message>
        <source>Research phase: start/stop sessions favour card-hours, but this plan is billed on {mode}: ask the vendor for an hourly quote.</source>
        <translation>研究阶段：频繁启停适合按卡时计费，但此方案的计费方式为{mode}：请向供应商询问按小时报价。</translation>
    </message>
    <message>
        <source>Research phase: start/stop sessions favour card-hours, but this plan is billed on {mode}, which bills every hour of the term, the {idle:.0f} hours a week you do not work included: ask the vendor for an hourly quote.</source>
        <translation>研究阶段：频繁启停适合按卡时计费，但此方案的计费方式为{mode}，租期内每个小时都计费，包括你每周不工作的 {idle:.0f} 小时：请向供应商询问按小时报价。</translation>
    </message>
    <message>
        <source>Billed on {mode}, as set in the scenario (constraints.rental_mode): {other} would cost {other_cost} instead of {cost}.</source>
        <translation>按“时间与预算”页的租用方式设定以{mode}计费：若改用{other}，费用为 {other_cost}，而非 {cost}。</translation>
    </message>
    <message>
        <source>Spot capacity can be reclaimed at any time: about {n} reclaims over the run, each losing the work since the last checkpoint and a restart (counted in this cost).</source>
        <translation>竞价资源随时可能被回收：整个运行期间约被回收 {n} 次，每次损失上个检查点之后的工作并需重启（已计入此费用）。</translation>
    </message>
    <message>
        <source>Spot card-hours would cost {spot} instead of {cost}, but spot capacity can be reclaimed at any time: about {n} reclaims over the run, each losing the work since the last checkpoint and a restart, and capacity taken back may not return at once, which your {days}-day deadline must allow for. Plans are ranked on prices without interruptions ({mode} here); set constraints.rental_mode to spot to plan on it.</source>
        <translation>竞价卡时的费用为 {spot}，而非 {cost}；但竞价资源随时可能被回收：整个运行期间约被回收 {n} 次，每次损失上个检查点之后的工作并需重启，且被回收的资源未必能立即恢复，{days} 天的截止时间须为此留出余量。各方案按不会中断的价格排名（此处为{mode}）；如要按竞价制定方案，请在“时间与预算”页把租用方式设为竞价卡时。</translation>
    </message>
    <message>
        <source>Spot card-hours would cost {spot} instead of {cost}, but spot capacity can be reclaimed at any time: about {n} reclaims over the run, each losing the work since the last checkpoint and a restart. Plans are ranked on prices without interruptions ({mode} here); set constraints.rental_mode to spot to plan on it.</source>
        <translation>竞价卡时的费用为 {spot}，而非 {cost}；但竞价资源随时可能被回收：整个运行期间约被回收 {n} 次，每次损失上个检查点之后的工作并需重启。各方案按不会中断的价格排名（此处为{mode}）；如要按竞价制定方案，请在“时间与预算”页把租用方式设为竞价卡时。</translation>
    </message>
    <message>
        <source>Card-hours instead would cost about {cost}: this card has no card-hour quote here, and at {provider}&apos;s card-hour price from the other region ({source}, {date}) this job would pay for its hours only, not for a whole week. Ask your vendor for an hourly quote.</source>
        <translation>改按卡时计费约为 {cost}：此卡在本地区没有卡时报价；按 {provider} 在另一地区的卡时价格（{source}，{date}），此任务只需为实际用时付费，而不必付整周的租金。请向供应商索取按小时的报价。</translation>
    </message>
    <message>
        <source>Card-hours instead would cost about {cost}: this card has no card-hour quote here, and at {provider}&apos;s card-hour price from the other region ({source}, {date}) this job would pay for its hours only, not for a whole month. Ask your vendor for an hourly quote.</source>
        <translation>改按卡时计费约为 {cost}：此卡在本地区没有卡时报价；按 {provider} 在另一地区的卡时价格（{source}，{date}），此任务只需为实际用时付费，而不必付整月的租金。请向供应商索取按小时的报价。</translation>
    </message>
    <message>
        <source>Rent: this job alone ({days}) costs {rent} to rent; a job of {days} is no reason to buy {servers} ({price}).</source>
        <translation>建议租用：仅这一个任务（{days}）租用需 {rent}；{days}的任务不足以成为购买 {servers}（{price}）的理由。</translation>
    </message>
    <message>
        <source>Owning is a question for steady work over the servers&apos; {y} years: to weigh it, enter the period and its jobs on the Hardware page (Period compared, Jobs in the period).</source>
        <translation>是否自建，要看服务器 {y} 年内是否有稳定的工作量：如需比较，请在“硬件”页填写“比较期间”和“期间内任务数”。</translation>
    </message>
    <message>
        <source>At these prices owning never pays off, even with the servers busy all the time.</source>
        <translation>按这些价格，即使服务器一直满负荷，自有也永远不划算。</translation>
    </message>
    <message>
        <source>No purchase price is known for {servers}: enter one on the Hardware page to compare building with renting (renting costs {rent}).</source>
        <translation>{servers}没有已知的购买价格：请在“硬件”页填写，以便比较自建与租用（租用需 {rent}）。</translation>
    </message>
    <message>
        <source>one {g}-GPU server</source>
        <translation>1 台 {g} 卡服务器</translation>
    </message>
    <message>
        <source>one {g}-GPU server (the plan uses {used} of its GPUs)</source>
        <translation>1 台 {g} 卡服务器（方案只用其中 {used} 张卡）</translation>
    </message>
    <message>
        <source>{n} server(s) with {g} GPU(s) each</source>
        <translation>{n} 台 {g} 卡服务器</translation>
    </message>
    <message>
        <source>{n} servers with {g} GPUs each (the plan uses {used} of their GPUs)</source>
        <translation>{n} 台 {g} 卡服务器（方案只用其中 {used} 张卡）</translation>
    </message>
    <message>
        <source>Not for this plan: it uses {n} of a machine&apos;s {g} cards for {days}, and a weekly rent bills whole machines for whole weeks.</source>
        <translation>对本方案并不划算：它只用一台机器 {g} 张卡中的 {n} 张，运行 {days}，而包周按整台机器、整周计费。</translation>
    </message>
    <message>
        <source>Not for this plan: it runs {days}, and a weekly rent bills whole machines for whole weeks.</source>
        <translation>对本方案并不划算：它只运行 {days}，而包周按整台机器、整周计费。</translation>
    </message>
    <message>
        <source>Not for this plan: it uses {n} of a machine&apos;s {g} cards for {days}, and a monthly rent bills whole machines for whole months.</source>
        <translation>对本方案并不划算：它只用一台机器 {g} 张卡中的 {n} 张，运行 {days}，而包月按整台机器、整月计费。</translation>
    </message>
    <message>
        <source>Not for this plan: it runs {days}, and a monthly rent bills whole machines for whole months.</source>
        <translation>对本方案并不划算：它只运行 {days}，而包月按整台机器、整月计费。</translation>
    </message>
</context>
<context>
    <name>CostChart</name>
    <message>
        <source>Cost against time (candidate plans)</source>
        <translation>成本与时间（候选方案）</translation>
    </message>
    <message>
        <source>plans</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>chosen</source>
        <translation>已选</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>hours</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>weeks</source>
        <translation>周</translation>
    </message>
    <message>
        <source>updating…</source>
        <translation>更新中…</translation>
    </message>
    <message>
        <source>The plan search is running for your latest change; these are the plans of the previous inputs until it finishes.</source>
        <translation>正在按你最新的修改重新搜索方案；搜索完成前，这里显示的是修改前输入的方案。</translation>
    </message>
    <message>
        <source>best trade-offs</source>
        <translation>最佳权衡</translation>
    </message>
    <message>
        <source>cost ({0})</source>
        <translation>成本（{0}）</translation>
    </message>
    <message>
        <source>Plans with a cost and a duration appear here when the search finishes.</source>
        <translation>搜索完成后，带成本和时长的方案会显示在这里。</translation>
    </message>
    <message>
        <source>#{0} {1} × {2}
{3}, {4}</source>
        <translation>#{0} {1} × {2}
{3}，{4}</translation>
    </message>
    <message>
        <source>deadline</source>
        <translation>截止时间</translation>
    </message>
    <message>
        <source>budget</source>
        <translation>预算</translation>
    </message>
</context>
<context>
    <name>CustomGpuDialog</name>
    <message>
        <source>Add a custom GPU</source>
        <translation>添加自定义 GPU</translation>
    </message>
    <message>
        <source>PCIe only</source>
        <translation>仅 PCIe</translation>
    </message>
    <message>
        <source>NVLink (or another fast GPU-to-GPU link)</source>
        <translation>NVLink（或其他高速卡间互联）</translation>
    </message>
    <message>
        <source>Not known (generic efficiency)</source>
        <translation>未知（按通用效率估算）</translation>
    </message>
    <message>
        <source>NVIDIA Volta</source>
        <translation>NVIDIA Volta 架构</translation>
    </message>
    <message>
        <source>NVIDIA Ampere</source>
        <translation>NVIDIA Ampere 架构</translation>
    </message>
    <message>
        <source>NVIDIA Ada Lovelace</source>
        <translation>NVIDIA Ada Lovelace 架构</translation>
    </message>
    <message>
        <source>NVIDIA Hopper</source>
        <translation>NVIDIA Hopper 架构</translation>
    </message>
    <message>
        <source>NVIDIA Blackwell (data centre)</source>
        <translation>NVIDIA Blackwell（数据中心）</translation>
    </message>
    <message>
        <source>NVIDIA Blackwell (GeForce)</source>
        <translation>NVIDIA Blackwell（GeForce）</translation>
    </message>
    <message>
        <source>AMD CDNA 2</source>
        <translation>AMD CDNA 2 架构</translation>
    </message>
    <message>
        <source>AMD CDNA 3</source>
        <translation>AMD CDNA 3 架构</translation>
    </message>
    <message>
        <source>For a variant of a known card (other memory, clocks or power limit): the time estimate then uses that architecture&apos;s matmul efficiency, attention kernels and FP8 recipes instead of a cautious generic efficiency.</source>
        <translation>用于已知型号的变体（显存、频率或功耗上限不同）：时间估算将使用该架构的矩阵乘效率、注意力内核和 FP8 方案，而不是保守的通用效率。</translation>
    </message>
    <message>
        <source>Dense (not sparse) BF16 tensor TFLOPS from the datasheet; the time estimate needs it.</source>
        <translation>数据手册中的 BF16 稠密（非稀疏）张量算力 TFLOPS；时间估算需要它。</translation>
    </message>
    <message>
        <source>Memory bandwidth in TB/s; used for the memory-bound parts of a step.</source>
        <translation>显存带宽（TB/s）；用于估算每步中受显存带宽限制的部分。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Memory (GiB)</source>
        <translation>显存（GiB）</translation>
    </message>
    <message>
        <source>Dense BF16 TFLOPS</source>
        <translation>稠密 BF16 TFLOPS</translation>
    </message>
    <message>
        <source>Memory bandwidth (TB/s)</source>
        <translation>显存带宽（TB/s）</translation>
    </message>
    <message>
        <source>Interconnect</source>
        <translation>互联</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>TDP (W)</source>
        <translation>TDP（W）</translation>
    </message>
    <message>
        <source>{0} is required</source>
        <translation>{0}为必填项</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>{0} must be more than zero</source>
        <translation>{0}必须大于零</translation>
    </message>
    <message>
        <source>a name has at most {0} characters</source>
        <translation>名称最多 {0} 个字符</translation>
    </message>
    <message>
        <source>{0} must be at most {1}</source>
        <translation>{0}不能超过 {1}</translation>
    </message>
    <message>
        <source>a name is required</source>
        <translation>必须填写名称</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Price per card-hour ({0})</source>
        <translation>每卡时价格（{0}）</translation>
    </message>
    <message>
        <source>TFLOPS</source>
        <translation>TFLOPS</translation>
    </message>
    <message>
        <source>Memory bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <source>TDP</source>
        <translation>TDP</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Dense (not sparse) FP8 tensor TFLOPS from the datasheet, usually twice the BF16 figure on cards that have FP8 (Hopper, Ada, Blackwell). It is the peak of FP8 training and of FP8/INT8 serving. Empty (default): FP8 training on this card is refused and serving uses the BF16 peak.</source>
        <translation>数据手册上的稠密（非稀疏）FP8 张量 TFLOPS；支持 FP8 的卡（Hopper、Ada、Blackwell）通常是 BF16 数值的两倍。它是 FP8 训练和 FP8/INT8 推理的峰值。留空（默认）：这张卡上的 FP8 训练会被拒绝，推理按 BF16 峰值计算。</translation>
    </message>
    <message>
        <source>Dense FP8 TFLOPS</source>
        <translation>稠密 FP8 TFLOPS</translation>
    </message>
    <message>
        <source>FP8 TFLOPS</source>
        <translation>FP8 TFLOPS</translation>
    </message>
</context>
<context>
    <name>DataPage</name>
    <message>
        <source>Data volume</source>
        <translation>数据量</translation>
    </message>
    <message>
        <source>3 · Data volume</source>
        <translation>3 · 数据量</translation>
    </message>
    <message>
        <source>How many tokens the training processes. Give tokens directly, or samples × their average length, or the size of the raw text × tokens per GB.</source>
        <translation>训练要处理多少 token。可直接填 token 数，或填样本数 × 平均长度，或填原始文本大小 × 每 GB 的 token 数。</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Describe it as</source>
        <translation>描述方式</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>token</translation>
    </message>
    <message>
        <source>samples × length</source>
        <translation>样本数 × 长度</translation>
    </message>
    <message>
        <source>GB of text</source>
        <translation>文本 GB 数</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token 数</translation>
    </message>
    <message>
        <source>Tokens in one pass, e.g. 300B, 1.5T or 2000000000: time and cost grow linearly</source>
        <translation>单轮的 token 数，例如 3000 亿、1.5 万亿、300B 或 2000000000：时间和成本随之线性增长</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>Number of training examples (e.g. 50k, 1.2M)</source>
        <translation>训练样本数量（例如 50k、1.2M）</translation>
    </message>
    <message>
        <source>Average length</source>
        <translation>平均长度</translation>
    </message>
    <message>
        <source>Dataset size</source>
        <translation>数据集大小</translation>
    </message>
    <message>
        <source>Raw UTF-8 text size in GB (10^9 bytes)</source>
        <translation>原始 UTF-8 文本大小，单位 GB（10^9 字节）</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Sets the default tokens per GB; measure with your tokenizer when you can</source>
        <translation>决定每 GB 的默认 token 数；条件允许时请用你的分词器实测</translation>
    </message>
    <message>
        <source>Tokens per GB</source>
        <translation>每 GB token 数</translation>
    </message>
    <message>
        <source>How many tokens 1 GB of text becomes: English ≈ 250M (≈4 characters per token); edit it for your tokenizer</source>
        <translation>1 GB 文本能切出多少 token：英文 ≈ 250M（≈ 每 token 4 个字符）；请按你的分词器修改</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮数（epoch）</translation>
    </message>
    <message>
        <source>Passes over the data: multiplies the tokens processed</source>
        <translation>遍历数据的次数：处理的 token 数随之成倍增加</translation>
    </message>
    <message>
        <source>GB</source>
        <translation>GB</translation>
    </message>
    <message>
        <source>×</source>
        <translation>×</translation>
    </message>
    <message>
        <source>English</source>
        <translation>英文</translation>
    </message>
    <message>
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <source>Source code</source>
        <translation>源代码</translation>
    </message>
    <message>
        <source>Training volume</source>
        <translation>训练量</translation>
    </message>
    <message>
        <source>Tokens processed</source>
        <translation>处理的 token 数</translation>
    </message>
    <message>
        <source>Total compute (6·N·D)</source>
        <translation>总算力需求（6·N·D）</translation>
    </message>
    <message>
        <source>6 × active parameters × tokens (Kaplan et al. 2020): forward 2, backward 4 FLOPs per parameter and token</source>
        <translation>6 × 激活参数量 × token 数（Kaplan 等，2020）：每个参数每个 token 前向 2、反向 4 FLOPs</translation>
    </message>
    <message>
        <source>{0} tokens</source>
        <translation>{0} token</translation>
    </message>
    <message>
        <source>Compute-optimal hint (Chinchilla, ≈20 tokens per parameter): about {0} tokens for this model; you have {1} tokens per parameter.</source>
        <translation>算力最优提示（Chinchilla，每个参数 ≈20 个 token）：该模型约需 {0} token；你目前每个参数 {1} 个 token。</translation>
    </message>
    <message>
        <source>Fine-tuning: the data volume is whatever your task needs; the 20-tokens-per-parameter rule applies to pretraining only.</source>
        <translation>微调：数据量按任务需要而定；“每个参数 20 个 token”的经验法则只适用于预训练。</translation>
    </message>
    <message>
        <source>Average tokens per example after tokenisation. The same value as the Training page&apos;s Mean sample length: it also sets how much padding the rows carry</source>
        <translation>分词后每个样本的平均 token 数。与“训练设置”页的“平均样本长度”是同一个值：它也决定每行要填充多少</translation>
    </message>
</context>
<context>
    <name>DocumentController</name>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The plan has unsaved changes. Save them first?</source>
        <translation>方案有未保存的更改。要先保存吗？</translation>
    </message>
    <message>
        <source>Open plan or scenario</source>
        <translation>打开方案或场景</translation>
    </message>
    <message>
        <source>GPU Planner plans (*.gpuplan);;Scenario JSON (*.json);;All files (*)</source>
        <translation>GPU Planner 方案 (*.gpuplan);;场景 JSON (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <source>Opened {0}</source>
        <translation>已打开 {0}</translation>
    </message>
    <message>
        <source>Save plan</source>
        <translation>保存方案</translation>
    </message>
    <message>
        <source>GPU Planner plans (*.gpuplan)</source>
        <translation>GPU Planner 方案 (*.gpuplan)</translation>
    </message>
    <message>
        <source>Cannot save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <source>Saved {0}</source>
        <translation>已保存 {0}</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <source>Discard the changes since the last save?</source>
        <translation>放弃上次保存以来的更改吗？</translation>
    </message>
    <message>
        <source>File changed on disk</source>
        <translation>磁盘上的文件已被修改</translation>
    </message>
    <message>
        <source>“{0}” was changed by another program since you opened or saved it.</source>
        <translation>“{0}”在你打开或保存之后被其他程序修改过。</translation>
    </message>
    <message>
        <source>Keep Mine saves your version over it (the other version is kept as {0}.bak). Reload opens the file as it is now and drops your unsaved changes. Save As… keeps both.</source>
        <translation>“保留我的”用你的版本覆盖它（另一个版本保存为 {0}.bak）；“重新载入”打开文件的当前内容，丢弃你未保存的修改；“另存为…”两者都保留。</translation>
    </message>
    <message>
        <source>&amp;Keep Mine</source>
        <translation>保留我的(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>重新载入(&amp;R)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>No unsaved work to recover.</source>
        <translation>没有需要恢复的未保存工作。</translation>
    </message>
    <message>
        <source>{0} more autosaved plan(s) kept: File › Recover Unsaved Work… offers them again.</source>
        <translation>另有 {0} 个自动保存的方案已保留：“文件 › 恢复未保存的工作…”会再次列出它们。</translation>
    </message>
    <message>
        <source>Cannot recover</source>
        <translation>无法恢复</translation>
    </message>
    <message>
        <source>{0}: cannot open this file ({1})</source>
        <translation>{0}：无法打开此文件（{1}）</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>{field}: {message}</source>
        <translation>{field}：{message}</translation>
    </message>
    <message>
        <source>a value was expected</source>
        <translation>此处缺少一个值</translation>
    </message>
    <message>
        <source>a &apos;,&apos; was expected</source>
        <translation>此处缺少逗号“,”</translation>
    </message>
    <message>
        <source>a &apos;:&apos; was expected</source>
        <translation>此处缺少冒号“:”</translation>
    </message>
    <message>
        <source>a key in double quotation marks was expected</source>
        <translation>此处应为带双引号的键名</translation>
    </message>
    <message>
        <source>a string is not closed</source>
        <translation>字符串没有闭合</translation>
    </message>
    <message>
        <source>a control character inside a string</source>
        <translation>字符串中有控制字符</translation>
    </message>
    <message>
        <source>an invalid backslash escape</source>
        <translation>无效的反斜杠转义</translation>
    </message>
    <message>
        <source>an invalid \uXXXX escape</source>
        <translation>无效的 \uXXXX 转义</translation>
    </message>
    <message>
        <source>more text after the JSON value</source>
        <translation>JSON 值之后还有多余内容</translation>
    </message>
    <message>
        <source>Input should be greater than {value}</source>
        <translation>输入值应大于 {value}</translation>
    </message>
    <message>
        <source>Input should be greater than or equal to {value}</source>
        <translation>输入值应大于或等于 {value}</translation>
    </message>
    <message>
        <source>Input should be less than {value}</source>
        <translation>输入值应小于 {value}</translation>
    </message>
    <message>
        <source>Input should be less than or equal to {value}</source>
        <translation>输入值应小于或等于 {value}</translation>
    </message>
    <message>
        <source>Input should be {value}</source>
        <translation>输入值应为 {value}</translation>
    </message>
    <message>
        <source>Field required</source>
        <translation>缺少必填字段</translation>
    </message>
    <message>
        <source>Input should be a valid integer, unable to parse string as an integer</source>
        <translation>输入值应为有效的整数，无法将该文本解析为整数</translation>
    </message>
    <message>
        <source>Input should be a valid integer, got a number with a fractional part</source>
        <translation>输入值应为有效的整数，但给出的数带有小数部分</translation>
    </message>
    <message>
        <source>Input should be a valid integer</source>
        <translation>输入值应为有效的整数</translation>
    </message>
    <message>
        <source>Input should be a valid number, unable to parse string as a number</source>
        <translation>输入值应为有效的数字，无法将该文本解析为数字</translation>
    </message>
    <message>
        <source>Input should be a valid number</source>
        <translation>输入值应为有效的数字</translation>
    </message>
    <message>
        <source>Input should be a valid boolean, unable to interpret input</source>
        <translation>输入值应为有效的布尔值（true/false），无法解析该输入</translation>
    </message>
    <message>
        <source>Input should be a valid boolean</source>
        <translation>输入值应为有效的布尔值（true/false）</translation>
    </message>
    <message>
        <source>Input should be a valid string</source>
        <translation>输入值应为有效的文本</translation>
    </message>
    <message>
        <source>Input should be a valid dictionary</source>
        <translation>输入值应为有效的 JSON 对象</translation>
    </message>
    <message>
        <source>Input should be a valid dictionary or instance of {value}</source>
        <translation>输入值应为有效的 JSON 对象或 {value} 实例</translation>
    </message>
    <message>
        <source>Input should be a valid list</source>
        <translation>输入值应为有效的列表</translation>
    </message>
    <message>
        <source>Input should be a finite number</source>
        <translation>输入值应为有限的数</translation>
    </message>
    <message>
        <source>unknown field</source>
        <translation>未知字段</translation>
    </message>
    <message>
        <source>String should have at least {value} character</source>
        <translation>字符串至少应有 {value} 个字符</translation>
    </message>
    <message>
        <source>String should have at most {value} characters</source>
        <translation>字符串最多只能有 {value} 个字符</translation>
    </message>
    <message>
        <source>Input should be a valid decimal</source>
        <translation>应为有效的数字</translation>
    </message>
    <message>
        <source>Input should be a valid date or datetime, {value}</source>
        <translation>应为有效的日期（YYYY-MM-DD），{value}</translation>
    </message>
    <message>
        <source>String should match pattern {value}</source>
        <translation>应符合格式 {value}</translation>
    </message>
    <message>
        <source>a price cannot be below zero ({value})</source>
        <translation>价格不能小于零（{value}）</translation>
    </message>
    <message>
        <source>{reason}, got {value}</source>
        <translation>{reason}，实际为 {value}</translation>
    </message>
    <message>
        <source>Input should be {value} or {last}</source>
        <translation>输入值应为 {value} 或 {last}</translation>
    </message>
</context>
<context>
    <name>Estimate</name>
    <message>
        <source>tp={tp} does not divide num_attention_heads={heads}</source>
        <translation>tp={tp} 不能整除 num_attention_heads={heads}</translation>
    </message>
    <message>
        <source>pp={pp} exceeds the model&apos;s {layers} layers</source>
        <translation>pp={pp} 超过了模型的层数 {layers}</translation>
    </message>
    <message>
        <source>vpp={vpp} interleaves pipeline stages; it needs pp &gt; 1</source>
        <translation>vpp={vpp} 交错排布流水线阶段，需要 pp &gt; 1</translation>
    </message>
    <message>
        <source>expert parallelism needs an MoE model</source>
        <translation>专家并行需要 MoE 模型</translation>
    </message>
    <message>
        <source>ep={ep} does not divide num_experts={experts}</source>
        <translation>ep={ep} 不能整除 num_experts={experts}</translation>
    </message>
    <message>
        <source>ep={ep} must divide the data-parallel degree {dp}</source>
        <translation>ep={ep} 必须能整除数据并行度 {dp}</translation>
    </message>
    <message>
        <source>vpp={vpp} with pp={pp} makes {chunks} model chunks, more than the model&apos;s {layers} layers plus its embedding and loss</source>
        <translation>vpp={vpp} 与 pp={pp} 共切出 {chunks} 个模型分块，多于模型的层数 {layers} 加上词嵌入层和损失层</translation>
    </message>
    <message>
        <source>cp={cp} does not divide seq_len={seq_len}</source>
        <translation>cp={cp} 不能整除 seq_len={seq_len}</translation>
    </message>
    <message>
        <source>ep={ep} × expert_tp={etp} must divide tp × cp × dp = {grid} (Megatron&apos;s expert parallel folding)</source>
        <translation>ep={ep} × expert_tp={etp} 必须能整除 tp × cp × dp = {grid}（Megatron 的专家并行折叠）</translation>
    </message>
    <message>
        <source>moe_dispatcher=flex needs tp × ep &gt; 1 (Megatron&apos;s flex dispatcher)</source>
        <translation>moe_dispatcher=flex 需要 tp × ep &gt; 1（Megatron 的 flex 分发器）</translation>
    </message>
    <message>
        <source>recompute_modules mla_up_proj needs a model with multi-latent attention (Megatron-Core)</source>
        <translation>重计算“MLA 上投影”需要使用多头潜在注意力（MLA）的模型（Megatron-Core）</translation>
    </message>
    <message>
        <source>cuda_graph_scope={scope} captures the MoE router; the model has no MoE layers</source>
        <translation>cuda_graph_scope={scope} 会捕获 MoE 路由器；该模型没有 MoE 层</translation>
    </message>
    <message>
        <source>cuda_graph_scope=layer on an MoE model needs moe_pad_to_capacity (Megatron graphs MoE layers only with drop-and-pad)</source>
        <translation>MoE 模型上的 cuda_graph_scope=layer 需要 moe_pad_to_capacity（Megatron 只在丢弃并填充时为 MoE 层建 CUDA 图）</translation>
    </message>
</context>
<context>
    <name>Evaluation</name>
    <message>
        <source>{fw} does not document the {objective} objective; estimated with its engine&apos;s conventions.</source>
        <translation>{fw} 的文档未说明 {objective} 训练目标；按其底层引擎的惯例估算。</translation>
    </message>
    <message>
        <source>vLLM&apos;s share of each GPU ({share:.1f} GiB) does not hold the model&apos;s 16-bit weights ({w:.1f} GiB): raise training.rl.generation_gpu_fraction or use more tensor parallelism.</source>
        <translation>vLLM 在每张 GPU 上的份额（{share:.1f} GiB）放不下模型的 16 位权重（{w:.1f} GiB）：请调高 training.rl.generation_gpu_fraction 或增大张量并行。</translation>
    </message>
    <message>
        <source>No rental price for {gpu}: enter a quote.</source>
        <translation>{gpu} 没有租用价格：请输入报价。</translation>
    </message>
    <message>
        <source>The EP all-to-all overlap hides nothing here: Megatron-Core runs {w} chunk(s) of forward alone before it pairs one micro-batch&apos;s forward with another&apos;s backward, and a step here has {c} chunk(s) in all ({m} per model chunk); raise the global batch or the gradient accumulation to give it pairs.</source>
        <translation>专家全对全通信重叠在此不隐藏任何时间：Megatron-Core 先单独运行 {w} 个前向分块，之后才把一个微批次的前向与另一个微批次的反向配对，而这里每步共有 {c} 个分块（每个模型分块 {m} 个）；请增大全局批次或梯度累积，使其有可配对的微批次。</translation>
    </message>
    <message>
        <source>Calibrated by the run measured on {n} × {gpu} ({nodes} node(s), TP {tp}, PP {pp}): MFU {mfu:.1%}; this GPU&apos;s matmul efficiency × {k:.2f}, this plan&apos;s own communication kept.</source>
        <translation>已按在 {n} × {gpu}（{nodes} 个节点，TP {tp}，PP {pp}）上的实测结果校准：MFU {mfu:.1%}；该 GPU 的矩阵乘效率 × {k:.2f}，本方案自身的通信开销保持不变。</translation>
    </message>
    <message>
        <source>A later run on this GPU is used instead.</source>
        <translation>改用该 GPU 上更新的一次测量。</translation>
    </message>
    <message>
        <source>The MFU you set in the assumptions is used instead.</source>
        <translation>改用你在假设中设定的 MFU。</translation>
    </message>
    <message>
        <source>Measured run ({mfu:.1%} MFU on {n} × {gpu}): {why}</source>
        <translation>实测结果（{n} × {gpu}，MFU {mfu:.1%}）：{why}</translation>
    </message>
    <message>
        <source>{net}: one NIC per server assumed ({gbps:g} Gb/s for {g} GPUs; the catalogue gives no count): enter NICs per server on the Hardware page.</source>
        <translation>{net}：按每台服务器一张网卡计算（{g} 张 GPU 共用 {gbps:g} Gb/s；目录中没有网卡数量）：请在“硬件与价格”页填写“每台服务器网卡数”。</translation>
    </message>
    <message>
        <source>modelled {modelled:.1%}; no run on this card is published, so it takes the lowest ceiling of its framework family, {ceil:.1%} for {cls} ({src}, {date}): timed and costed at {ceil:.1%}</source>
        <translation>模型估算 {modelled:.1%}；这张卡没有公开的训练记录，因此取其框架类别中最低的上限，即 {cls} 的 {ceil:.1%}（{src}，{date}）：按 {ceil:.1%} 计算时间和成本</translation>
    </message>
    <message>
        <source>modelled {modelled:.1%}; no run of this framework on this card family is published, so it takes the lowest ceiling of the family, {ceil:.1%} for {cls} ({src}, {date}): timed and costed at {ceil:.1%}</source>
        <translation>模型估算 {modelled:.1%}；这一类卡上没有该框架的公开训练记录，因此取该类卡中最低的上限，即 {cls} 的 {ceil:.1%}（{src}，{date}）：按 {ceil:.1%} 计算时间和成本</translation>
    </message>
    <message>
        <source>modelled {modelled:.1%}, above the best published {ceil:.1%} for {cls} ({src}, {date}): timed and costed at {ceil:.1%}</source>
        <translation>模型估算 {modelled:.1%}，高于 {cls} 的最佳公开值 {ceil:.1%}（{src}，{date}）：按 {ceil:.1%} 计算时间和成本</translation>
    </message>
    <message>
        <source>Megatron-FSDP with tensor or context parallelism on GPUs before Blackwell: Megatron-LM advises against it (sequence parallelism wants CUDA_DEVICE_MAX_CONNECTIONS=1, Megatron-FSDP refuses it); expect the TP/CP communication to overlap worse than estimated, or use TP 1 with more data parallelism.</source>
        <translation>在 Blackwell 之前的 GPU 上将 Megatron-FSDP 与张量并行或上下文并行合用：Megatron-LM 不建议这样做（序列并行需要 CUDA_DEVICE_MAX_CONNECTIONS=1，而 Megatron-FSDP 不允许该设置）；TP/CP 通信的重叠可能比估算差，或改用 TP 1 并加大数据并行。</translation>
    </message>
    <message>
        <source>{why}. Choose a framework that trains it.</source>
        <translation>{why}。请选择能训练该模型的框架。</translation>
    </message>
    <message>
        <source>Pipeline parallel {pp} with {fw} on a fine-tune: the Hugging Face Trainer runs DeepSpeed with ZeRO only; this needs the model rewritten by hand as a deepspeed.pipe.PipelineModule.</source>
        <translation>微调时用 {fw} 的流水线并行 {pp}：Hugging Face Trainer 只以 ZeRO 方式运行 DeepSpeed；这需要把模型手工改写为 deepspeed.pipe.PipelineModule。</translation>
    </message>
    <message>
        <source>modelled hardware FLOPs utilisation {modelled:.1%} (recomputed FLOPs counted); no run of its own class is published, so it takes the lowest hardware FLOPs utilisation of the classes that have one, {ceil:.1%} for {cls} ({src}, {date}): timed and costed at {ceil:.1%} hardware FLOPs utilisation</source>
        <translation>模型估算硬件算力利用率 {modelled:.1%}（计入重计算的运算量）；本类没有公开的运行记录，因此取有记录各类中最低的硬件算力利用率，即 {cls} 的 {ceil:.1%}（{src}，{date}）：按硬件算力利用率 {ceil:.1%} 计算时间和成本</translation>
    </message>
    <message>
        <source>modelled hardware FLOPs utilisation {modelled:.1%} (recomputed FLOPs counted), above the best published {ceil:.1%} for {cls} ({src}, {date}): timed and costed at {ceil:.1%} hardware FLOPs utilisation</source>
        <translation>模型估算硬件算力利用率 {modelled:.1%}（计入重计算的运算量），高于 {cls} 的最佳公开值 {ceil:.1%}（{src}，{date}）：按硬件算力利用率 {ceil:.1%} 计算时间和成本</translation>
    </message>
    <message>
        <source>At least 80% of the published runs of this framework family took between the low and the high end of this range of what the model predicts for them (the range always holds the estimate itself); an untuned run can be slower.</source>
        <translation>该框架系列的已发表训练记录中，至少 80% 的实际用时落在模型预测值的这一区间内（区间始终包含估计值本身）；未经调优的训练可能更慢。</translation>
    </message>
    <message>
        <source>Megatron-LM and Megatron-Core</source>
        <translation>Megatron-LM 与 Megatron-Core</translation>
    </message>
    <message>
        <source>MosaicML llm-foundry (PyTorch FSDP)</source>
        <translation>MosaicML llm-foundry（PyTorch FSDP）</translation>
    </message>
    <message>
        <source>torchtune</source>
        <translation>torchtune</translation>
    </message>
    <message>
        <source>Megatron-LM, llm-foundry and torchtune</source>
        <translation>Megatron-LM、llm-foundry 与 torchtune</translation>
    </message>
    <message>
        <source>{cost} (rented by the whole month: the same whatever the run&apos;s length in its range)</source>
        <translation>{cost}（整机按月租用：在此区间内无论运行多久，费用都一样）</translation>
    </message>
    <message>
        <source>{cost} (rented by the whole week: the same whatever the run&apos;s length in its range)</source>
        <translation>{cost}（整机按周租用：在此区间内无论运行多久，费用都一样）</translation>
    </message>
    <message>
        <source>{cost} (the same whatever the run&apos;s length in its range)</source>
        <translation>{cost}（在此区间内无论运行多久，费用都一样）</translation>
    </message>
    <message>
        <source>Does not fit: {need:.1f} GiB per GPU on a card of {cap:.1f} GiB, which also keeps {head:.1f} GiB free as headroom.</source>
        <translation>放不下：每张 GPU 需要 {need:.1f} GiB，而显卡只有 {cap:.1f} GiB，还要留出 {head:.1f} GiB 余量。</translation>
    </message>
    <message>
        <source>{fw}&apos;s own LoRA dropout default, {p:g}, assumed (none given): enter LoRA dropout on the Training page to change it.</source>
        <translation>未填写 LoRA 丢弃率，按 {fw} 自身的默认值 {p:g} 计算：如需更改，请在“训练”页填写“LoRA 丢弃率”。</translation>
    </message>
    <message>
        <source>Every-N-th-layer activation checkpointing (every {n} layers) runs only on torchtitan before commit {commit} ({date}), which removed it: estimated as entered, for such a version. Current torchtitan runs per-op selective or full checkpointing.</source>
        <translation>每隔 N 层的激活检查点（每 {n} 层一次）只有提交 {commit}（{date}）之前的 torchtitan 才支持，该提交已将其删除：按所填内容、以这样的旧版本估算。当前的 torchtitan 只支持逐算子选择性检查点或全部重算。</translation>
    </message>
    <message>
        <source>Servers of {g} GPUs, as entered (GPUs per node); this card usually comes {k} to a server. Layouts, links and server counts use {g}.</source>
        <translation>按你填写的每台服务器 {g} 块 GPU（每节点 GPU 数）计算；这种卡通常每台服务器 {k} 块。布局、互联和服务器台数都按 {g} 块计。</translation>
    </message>
    <message>
        <source>No network between servers entered: the time assumes {nics} NIC(s) of {net} per server ({gbps:g} Gb/s per server), the planner&apos;s default for this GPU; rented servers often have less. Enter yours on the Hardware page.</source>
        <translation>未填写服务器之间的网络：时间按每台服务器 {nics} 张 {net} 网卡计算（每台服务器 {gbps:g} Gb/s），这是本工具对该 GPU 的默认值；租用的服务器往往更少。请在“硬件与价格”页填写实际网络。</translation>
    </message>
    <message>
        <source>{fw} generates {objective} rollouts with vLLM only (ms-swift&apos;s Megatron GRPO documentation), but this plan times them as the training model&apos;s own generate(): set the Generation engine to vLLM (on the training GPUs or on GPUs of its own) to time what it runs.</source>
        <translation>{fw} 只用 vLLM 做 {objective} 的采样生成（见 ms-swift 的 Megatron GRPO 文档），而此方案按训练模型自身的 generate() 计时：请把“生成引擎”设为 vLLM（与训练共用 GPU 或使用独立 GPU），按它实际的运行方式计时。</translation>
    </message>
    <message>
        <source>Virtual pipeline stages (VPP {vpp}) with {fw} for {objective}: its trainer does not run the interleaved schedule (ms-swift grpo_trainer.py asserts that GRPO does not support VPP); set parallel.vpp to 1.</source>
        <translation>{fw} 的 {objective} 使用虚拟流水线阶段（VPP {vpp}）：其训练器不运行交错调度（ms-swift grpo_trainer.py 断言 GRPO 不支持 VPP）；请把 parallel.vpp 设为 1。</translation>
    </message>
    <message>
        <source>No ZeRO bars: ZeRO shards over data-parallel GPUs and this plan has one</source>
        <translation>无 ZeRO 柱：ZeRO 在数据并行的 GPU 之间切分，此方案只有一张</translation>
    </message>
    <message>
        <source>ZeRO-{zero} over {dp} data-parallel GPUs with {fw}: its distributed LoRA recipe always shards with FSDP2 (ZeRO-3 by default, ZeRO-2 with fsdp_reshard_after_forward false) and runs no plain data parallel; set parallel.zero to 2 or 3.</source>
        <translation>{fw} 在 {dp} 张数据并行 GPU 上使用 ZeRO-{zero}：它的分布式 LoRA 配方总是用 FSDP2 切分（默认 ZeRO-3，fsdp_reshard_after_forward 设为 false 时为 ZeRO-2），不运行普通数据并行；请把 parallel.zero 设为 2 或 3。</translation>
    </message>
</context>
<context>
    <name>Fields</name>
    <message>
        <source>enter a whole number</source>
        <translation>请输入整数</translation>
    </message>
    <message>
        <source>&apos;{text}&apos; is not a whole number</source>
        <translation>“{text}”不是整数</translation>
    </message>
    <message>
        <source>&apos;{text}&apos; is not a number</source>
        <translation>“{text}”不是数字</translation>
    </message>
    <message>
        <source>&apos;{text}&apos; is not a finite number</source>
        <translation>“{text}”不是有限的数字</translation>
    </message>
    <message>
        <source>must be more than zero</source>
        <translation>必须大于零</translation>
    </message>
</context>
<context>
    <name>Framework</name>
    <message>
        <source>runs Hugging Face checkpoints as they are; DDP or ZeRO through DeepSpeed/FSDP</source>
        <translation>直接运行 Hugging Face 检查点；通过 DeepSpeed/FSDP 使用 DDP 或 ZeRO</translation>
    </message>
    <message>
        <source>Transformers docs: Efficient training on multiple GPUs, DeepSpeed, FSDP</source>
        <translation>Transformers 文档：多 GPU 高效训练、DeepSpeed、FSDP</translation>
    </message>
    <message>
        <source>needs a DeepSpeed config; pipeline parallelism needs the model as a PipelineModule</source>
        <translation>需要 DeepSpeed 配置；流水线并行需要把模型改写为 PipelineModule</translation>
    </message>
    <message>
        <source>DeepSpeed docs: ZeRO, pipeline parallelism (ZeRO-2/3 not compatible with PP), activation checkpointing</source>
        <translation>DeepSpeed 文档：ZeRO、流水线并行（ZeRO-2/3 与 PP 不兼容）、激活检查点</translation>
    </message>
    <message>
        <source>torchtitan/torchtune recipes; reads Hugging Face weights after conversion to DCP</source>
        <translation>使用 torchtitan/torchtune 配方；Hugging Face 权重需先转换为 DCP 格式</translation>
    </message>
    <message>
        <source>Liang et al. 2024, TorchTitan (arXiv:2410.06511); PyTorch fully_shard docs</source>
        <translation>Liang 等，2024，TorchTitan（arXiv:2410.06511）；PyTorch fully_shard 文档</translation>
    </message>
    <message>
        <source>needs Megatron checkpoints (convert Hugging Face weights) and a tested image; ask the vendor for a pre-configured Megatron-LM</source>
        <translation>需要 Megatron 格式检查点（转换 Hugging Face 权重）和经过测试的镜像；请向供应商询问是否预装 Megatron-LM</translation>
    </message>
    <message>
        <source>Narayanan et al. 2021 (arXiv:2104.04473); Korthikanti et al. 2022 (arXiv:2205.05198); Megatron-LM docs and megatron/training/arguments.py; Megatron-FSDP feature guide</source>
        <translation>Narayanan 等，2021（arXiv:2104.04473）；Korthikanti 等，2022（arXiv:2205.05198）；Megatron-LM 文档与 megatron/training/arguments.py；Megatron-FSDP 功能指南</translation>
    </message>
    <message>
        <source>llamafactory-cli with a YAML; DeepSpeed ZeRO-0/2/3 configs are shipped</source>
        <translation>用 llamafactory-cli 加 YAML 配置；自带 DeepSpeed ZeRO-0/2/3 配置</translation>
    </message>
    <message>
        <source>hiyouga/LLaMA-Factory: hparams/model_args.py (disable_gradient_checkpointing=False), model/model_utils/checkpointing.py, examples/deepspeed/ds_z*_config.json</source>
        <translation>hiyouga/LLaMA-Factory：hparams/model_args.py（disable_gradient_checkpointing=False）、model/model_utils/checkpointing.py、examples/deepspeed/ds_z*_config.json</translation>
    </message>
    <message>
        <source>pip install unsloth; one GPU (or DDP); Hugging Face models as they are</source>
        <translation>pip install unsloth；单卡（或 DDP）；直接使用 Hugging Face 模型</translation>
    </message>
    <message>
        <source>unslothai/unsloth README and notebooks: get_peft_model(use_gradient_checkpointing=&apos;unsloth&apos;); Unsloth docs &apos;Unsloth Benchmarks&apos;; unsloth.ai/blog/llama3-3 (Cut Cross-Entropy)</source>
        <translation>unslothai/unsloth 的说明文件与示例笔记本：get_peft_model(use_gradient_checkpointing=&apos;unsloth&apos;)；Unsloth 文档的基准测试页；unsloth.ai/blog/llama3-3（Cut Cross-Entropy）</translation>
    </message>
    <message>
        <source>swift sft / swift rlhf; DeepSpeed zero0–zero3 configs are shipped</source>
        <translation>swift sft / swift rlhf；自带 DeepSpeed zero0–zero3 配置</translation>
    </message>
    <message>
        <source>modelscope/ms-swift docs &apos;Command line parameters&apos; (gradient_checkpointing true), swift/llm/ds_config</source>
        <translation>modelscope/ms-swift 文档“命令行参数”（gradient_checkpointing 为 true）、swift/llm/ds_config</translation>
    </message>
    <message>
        <source>megatron sft / megatron rlhf (ms-swift); converts Hugging Face weights itself; needs Transformer Engine and Apex</source>
        <translation>megatron sft / megatron rlhf（ms-swift）；自行转换 Hugging Face 权重；需要 Transformer Engine 和 Apex</translation>
    </message>
    <message>
        <source>ms-swift docs &apos;Megatron-SWIFT / Command line parameters&apos; (recompute_granularity selective, sequence_parallel false)</source>
        <translation>ms-swift 文档“Megatron-SWIFT / 命令行参数”（recompute_granularity 为 selective，sequence_parallel 为 false）</translation>
    </message>
    <message>
        <source>NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/recipes/llama/llama3.py, peft/lora.py, scripts/performance/configs/llama/</source>
        <translation>NVIDIA-NeMo/Megatron-Bridge 的 src/megatron/bridge/recipes/llama/llama3.py、peft/lora.py、scripts/performance/configs/llama/</translation>
    </message>
    <message>
        <source>git clone EleutherAI/gpt-neox (v1.0); a YAML config (model-parallel-size, pipe-parallel-size, zero_optimization); deepy.py train</source>
        <translation>git clone EleutherAI/gpt-neox（v1.0）；一个 YAML 配置（model-parallel-size、pipe-parallel-size、zero_optimization）；deepy.py train</translation>
    </message>
    <message>
        <source>EleutherAI/gpt-neox v1.0 megatron/model/transformer.py, megatron/mpu/layers.py, megatron/neox_arguments/neox_args.py; EleutherAI/pythia models/*/pythia-*.yml</source>
        <translation>EleutherAI/gpt-neox v1.0 的 megatron/model/transformer.py、megatron/mpu/layers.py、megatron/neox_arguments/neox_args.py；EleutherAI/pythia 的 models/*/pythia-*.yml</translation>
    </message>
    <message>
        <source>trl CLI or a script; DeepSpeed/FSDP through Accelerate configs</source>
        <translation>用 trl 命令行或脚本；通过 Accelerate 配置使用 DeepSpeed/FSDP</translation>
    </message>
    <message>
        <source>huggingface/trl trl/trainer/*_config.py (gradient_checkpointing defaults to True)</source>
        <translation>huggingface/trl 的 trl/trainer/*_config.py（gradient_checkpointing 默认为 True）</translation>
    </message>
    <message>
        <source>axolotl train config.yml; DeepSpeed configs are shipped</source>
        <translation>axolotl train config.yml；自带 DeepSpeed 配置</translation>
    </message>
    <message>
        <source>axolotl-ai-cloud/axolotl config reference (gradient_checkpointing false), deepspeed_configs/</source>
        <translation>axolotl-ai-cloud/axolotl 配置参考（gradient_checkpointing 为 false）、deepspeed_configs/</translation>
    </message>
    <message>
        <source>pretraining</source>
        <translation>预训练</translation>
    </message>
    <message>
        <source>full fine-tuning</source>
        <translation>全参微调</translation>
    </message>
    <message>
        <source>{fw} does not keep the optimizer states in CPU memory with Megatron-FSDP (ZeRO-{zero}): its optimizer CPU offload runs with the distributed optimizer only ({source}). Set parallel.zero to 1 or parallel.offload_optimizer off.</source>
        <translation>{fw} 在 Megatron-FSDP（ZeRO-{zero}）下不能把优化器状态放在 CPU 内存：它的优化器 CPU 卸载只与分布式优化器一起运行（{source}）。请把“ZeRO 阶段”设为 1，或取消勾选“优化器状态放在 CPU 内存”。</translation>
    </message>
    <message>
        <source>ZeRO-{zero} with PP</source>
        <translation>ZeRO-{zero} 与 PP 同用</translation>
    </message>
    <message>
        <source>ZeRO-{zero} with TP</source>
        <translation>ZeRO-{zero} 与 TP 同用</translation>
    </message>
    <message>
        <source>TP with PP</source>
        <translation>TP 与 PP 同用</translation>
    </message>
    <message>
        <source>{fw} does not run {method} ({source}); on the same engine {alts} does. Choose another framework.</source>
        <translation>{fw} 不支持 {method}（{source}）；同一引擎上的 {alts} 支持。请换用其他框架。</translation>
    </message>
    <message>
        <source>{fw} does not run {method} ({source}). Choose another framework.</source>
        <translation>{fw} 不支持 {method}（{source}）。请换用其他框架。</translation>
    </message>
    <message>
        <source>{fw} does not run {what} for {method}: it runs {runs} ({source}). Choose another framework or layout.</source>
        <translation>{fw} 在{method}时不支持 {what}：它支持 {runs}（{source}）。请选择其他框架或并行布局。</translation>
    </message>
    <message>
        <source>Megatron-Bridge recipes (NeMo framework container); converts Hugging Face weights itself (AutoBridge)</source>
        <translation>Megatron-Bridge 配方（NeMo 框架容器）；自行转换 Hugging Face 权重（AutoBridge）</translation>
    </message>
    <message>
        <source>{fw} does not run on {gpu}: it runs on cards made by {makers} ({source}).</source>
        <translation>{fw} 不能在 {gpu} 上运行：它只支持 {makers} 的卡（{source}）。</translation>
    </message>
    <message>
        <source>{fw} does not train vision-language models ({model}): it builds text-only decoders</source>
        <translation>{fw} 不训练视觉语言模型（{model}）：它只构建纯文本解码器</translation>
    </message>
    <message>
        <source>{fw} does not convert {model} (model_type {type}): it is not in ms-swift&apos;s Megatron model registry</source>
        <translation>{fw} 不能转换 {model}（model_type {type}）：它不在 ms-swift 的 Megatron 模型注册表中</translation>
    </message>
    <message>
        <source>{fw} has no model builder for {model} (model_type {type}) in torchtune/models</source>
        <translation>{fw} 在 torchtune/models 中没有 {model}（model_type {type}）的模型构建函数</translation>
    </message>
    <message>
        <source>{fw} does not build {model} (model_type {type}): torchtitan&apos;s models are Llama 3/4, Qwen3 and DeepSeek-V2/V3</source>
        <translation>{fw} 无法构建 {model}（model_type {type}）：torchtitan 的模型只有 Llama 3/4、Qwen3 和 DeepSeek-V2/V3</translation>
    </message>
    <message>
        <source>LoRA fine-tuning</source>
        <translation>LoRA 微调</translation>
    </message>
    <message>
        <source>QLoRA fine-tuning</source>
        <translation>QLoRA 微调</translation>
    </message>
    <message>
        <source>The interleaved pipeline (virtual pipeline stages, VPP) is not tried: {fw}&apos;s {objective} trainer does not run it (ms-swift swift/megatron/trainers/grpo_trainer.py asserts that GRPO does not support VPP).</source>
        <translation>未尝试交错流水线（虚拟流水线阶段，VPP）：{fw} 的 {objective} 训练器不运行它（ms-swift swift/megatron/trainers/grpo_trainer.py 断言 GRPO 不支持 VPP）。</translation>
    </message>
    <message>
        <source>pip install nanotron; a YAML config (parallelism dp/tp/pp, tokens, optimizer zero_stage); Llama-style models only</source>
        <translation>pip install nanotron；一个 YAML 配置（parallelism 的 dp/tp/pp、tokens、optimizer 的 zero_stage）；仅支持 Llama 类模型</translation>
    </message>
    <message>
        <source>huggingface/nanotron src/nanotron/optim/zero.py, optim/gradient_accumulator.py, models/base.py build_model, parallel/pipeline_parallel/engine.py; scripts/scaling_benchmarks.py</source>
        <translation>huggingface/nanotron 的 src/nanotron/optim/zero.py、optim/gradient_accumulator.py、models/base.py 的 build_model、parallel/pipeline_parallel/engine.py；scripts/scaling_benchmarks.py</translation>
    </message>
</context>
<context>
    <name>FrameworkChecks</name>
    <message>
        <source>the search&apos;s own list</source>
        <translation>搜索的默认列表</translation>
    </message>
    <message>
        <source>The frameworks the search may choose from when it chooses the framework. None ticked (default): the four engines (Hugging Face Trainer, DeepSpeed, PyTorch FSDP2, Megatron-Core), or for a preference or RL objective the tools that document a trainer for it</source>
        <translation>搜索自行选择框架时可选的框架。都不勾选（默认）：四种引擎（Hugging Face Trainer、DeepSpeed、PyTorch FSDP2、Megatron-Core）；偏好或强化学习目标则为文档中提供相应训练器的工具</translation>
    </message>
</context>
<context>
    <name>HardwareAdvanced</name>
    <message>
        <source>Link inside a server</source>
        <translation>服务器内 GPU 互联</translation>
    </message>
    <message>
        <source>The GPU-to-GPU link the estimate uses inside one server. Default: the catalog&apos;s link for the GPU (NVLink for SXM cards, PCIe for PCIe cards); set it when the servers you rent differ</source>
        <translation>估算在一台服务器内使用的 GPU 间互联。默认：目录中该 GPU 的链路（SXM 卡为 NVLink，PCIe 卡为 PCIe）；所租服务器不同时再设置</translation>
    </message>
    <message>
        <source>the GPU&apos;s own link</source>
        <translation>该 GPU 自身的链路</translation>
    </message>
    <message>
        <source>CPU memory per server</source>
        <translation>每台服务器 CPU 内存</translation>
    </message>
    <message>
        <source>The servers&apos; CPU memory: checked against what CPU offload of optimizer states, weights or activations needs. Empty (default): not checked</source>
        <translation>服务器的 CPU 内存：用来核对把优化器状态、权重或激活值卸载到 CPU 时所需的内存。留空（默认）：不核对</translation>
    </message>
    <message>
        <source>not checked</source>
        <translation>不核对</translation>
    </message>
</context>
<context>
    <name>HardwarePage</name>
    <message>
        <source>Hardware and prices</source>
        <translation>硬件与价格</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Your quote</source>
        <translation>你的报价</translation>
    </message>
    <message>
        <source>Derived from another rental mode without a discount</source>
        <translation>由另一种租用方式推算，未计折扣</translation>
    </message>
    <message>
        <source>Default price; type your own quote (double-click or start typing)</source>
        <translation>默认价格；可输入你自己的报价（双击或直接输入）</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>无价格</translation>
    </message>
    <message>
        <source>{0} (custom)</source>
        <translation>{0}（自定义）</translation>
    </message>
    <message>
        <source>{0} (converted at {1} CNY/USD)</source>
        <translation>{0}（按 {1} CNY/USD 换算）</translation>
    </message>
    <message>
        <source>your quote</source>
        <translation>你的报价</translation>
    </message>
    <message>
        <source>Price &apos;{0}&apos; for {1} is not a number; it was not changed.</source>
        <translation>{1} 的价格“{0}”不是数字，未作修改。</translation>
    </message>
    <message>
        <source>{0} per kWh</source>
        <translation>{0}/千瓦时</translation>
    </message>
    <message>
        <source>{0} per month</source>
        <translation>{0}/月</translation>
    </message>
    <message>
        <source>5 · Hardware and prices</source>
        <translation>5 · 硬件与价格</translation>
    </message>
    <message>
        <source>Tick the GPUs the plan search may use; the bold GPU drives the live charts. Prices are defaults with their sources — type your own quotes (per card). Unknown specs stay unknown.</source>
        <translation>勾选方案搜索可以使用的 GPU；粗体的 GPU 用于实时图表。价格为附带来源的默认值——请填入你自己的报价（按卡计）。未知的规格保持未知。</translation>
    </message>
    <message>
        <source>GPU catalog</source>
        <translation>GPU 目录</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>选用</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Interconnect</source>
        <translation>互联</translation>
    </message>
    <message>
        <source>TDP W</source>
        <translation>TDP W</translation>
    </message>
    <message>
        <source>Price source</source>
        <translation>价格来源</translation>
    </message>
    <message>
        <source>Candidate for the plan search</source>
        <translation>作为方案搜索的候选</translation>
    </message>
    <message>
        <source>Hover for the datasheet source</source>
        <translation>悬停查看数据手册来源</translation>
    </message>
    <message>
        <source>Memory per card: decides what fits</source>
        <translation>单卡显存：决定能否放得下</translation>
    </message>
    <message>
        <source>Link between the GPUs of one server, bidirectional per GPU</source>
        <translation>同一台服务器内 GPU 之间的互联，按每张 GPU 双向计</translation>
    </message>
    <message>
        <source>Board power</source>
        <translation>整卡功耗</translation>
    </message>
    <message>
        <source>On-demand price per card and hour</source>
        <translation>按需价格，按卡按小时计</translation>
    </message>
    <message>
        <source>{0}: figures you entered</source>
        <translation>{0}：你输入的参数</translation>
    </message>
    <message>
        <source>your entry: add a price to rank it</source>
        <translation>你的输入：填写价格后参与排名</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>TFLOPS</source>
        <translation>TFLOPS</translation>
    </message>
    <message>
        <source>board power {0} W</source>
        <translation>整卡功耗 {0} W</translation>
    </message>
    <message>
        <source>board power {0}</source>
        <translation>整卡功耗{0}</translation>
    </message>
    <message>
        <source>price from {0}</source>
        <translation>价格来源：{0}</translation>
    </message>
    <message>
        <source>{0} per server</source>
        <translation>{0}/台服务器</translation>
    </message>
    <message>
        <source>years</source>
        <translation>年</translation>
    </message>
    <message>
        <source>{0} per server-month</source>
        <translation>{0}/台·月</translation>
    </message>
    <message>
        <source>kW per server</source>
        <translation>kW/台服务器</translation>
    </message>
    <message>
        <source>% of hardware / year</source>
        <translation>% 硬件价格/年</translation>
    </message>
    <message>
        <source>months</source>
        <translation>个月</translation>
    </message>
    <message>
        <source>jobs</source>
        <translation>个任务</translation>
    </message>
    <message>
        <source>this job alone</source>
        <translation>仅此任务</translation>
    </message>
    <message>
        <source>unknown: enter a figure</source>
        <translation>未知：请填写</translation>
    </message>
    <message>
        <source>Default: {0}</source>
        <translation>默认值来源：{0}</translation>
    </message>
    <message>
        <source>Dense BF16 tensor TFLOPS (no sparsity)</source>
        <translation>稠密 BF16 Tensor TFLOPS（不含稀疏）</translation>
    </message>
    <message>
        <source>Weekly rent of a whole machine, per card</source>
        <translation>整机周租价格，折算到每张卡</translation>
    </message>
    <message>
        <source>Monthly rent of a whole machine, per card</source>
        <translation>整机月租价格，折算到每张卡</translation>
    </message>
    <message>
        <source>Where the default price comes from</source>
        <translation>默认价格的来源</translation>
    </message>
    <message>
        <source>Use for live estimate</source>
        <translation>用于实时估算</translation>
    </message>
    <message>
        <source>Make the selected GPU the one the live charts show</source>
        <translation>让实时图表显示所选的 GPU</translation>
    </message>
    <message>
        <source>Tick all</source>
        <translation>全选</translation>
    </message>
    <message>
        <source>Let the search consider every catalog GPU (those without a price or known specs are skipped)</source>
        <translation>让搜索考虑目录中的所有 GPU（没有价格或规格未知的会被跳过）</translation>
    </message>
    <message>
        <source>Add custom GPU…</source>
        <translation>添加自定义 GPU…</translation>
    </message>
    <message>
        <source>List a GPU that is not in the catalog, with the specs you know</source>
        <translation>按已知规格列出一款目录中没有的 GPU</translation>
    </message>
    <message>
        <source>Reset prices</source>
        <translation>重置价格</translation>
    </message>
    <message>
        <source>Drop your quotes and use the default prices again</source>
        <translation>丢弃你的报价，重新使用默认价格</translation>
    </message>
    <message>
        <source>Grey prices are derived from another rental mode without a discount; bold prices are your quotes; — : not published for this card.</source>
        <translation>灰色价格由另一种租用方式推算，未计折扣；粗体价格是你的报价；—：该卡未公布此项。</translation>
    </message>
    <message>
        <source>Servers and network</source>
        <translation>服务器与网络</translation>
    </message>
    <message>
        <source>GPUs per server</source>
        <translation>每台服务器 GPU 数</translation>
    </message>
    <message>
        <source>Cards in one server: the NVLink/PCIe domain; more GPUs need whole servers</source>
        <translation>单台服务器中的卡数，即 NVLink/PCIe 域；需要更多 GPU 时须按整台服务器增加</translation>
    </message>
    <message>
        <source>Between servers</source>
        <translation>服务器间网络</translation>
    </message>
    <message>
        <source>Network between servers: limits data-parallel and pipeline traffic across nodes</source>
        <translation>服务器之间的网络：限制跨节点的数据并行和流水线通信</translation>
    </message>
    <message>
        <source>default for the GPU</source>
        <translation>该 GPU 的默认值</translation>
    </message>
    <message>
        <source>NICs per server</source>
        <translation>每台服务器网卡数</translation>
    </message>
    <message>
        <source>Network cards per server (empty: the network&apos;s default, often one per GPU)</source>
        <translation>每台服务器的网卡数（留空：使用该网络的默认值，通常每张 GPU 一块）</translation>
    </message>
    <message>
        <source>the network&apos;s default</source>
        <translation>网络的默认值</translation>
    </message>
    <message>
        <source>Owning instead of renting</source>
        <translation>自建而非租用</translation>
    </message>
    <message>
        <source>Purchase price</source>
        <translation>购买价格</translation>
    </message>
    <message>
        <source>Depreciation</source>
        <translation>折旧年限</translation>
    </message>
    <message>
        <source>Rack / colocation</source>
        <translation>机柜/托管</translation>
    </message>
    <message>
        <source>Server power</source>
        <translation>服务器功率</translation>
    </message>
    <message>
        <source>Electricity tariff</source>
        <translation>电价</translation>
    </message>
    <message>
        <source>PUE</source>
        <translation>PUE</translation>
    </message>
    <message>
        <source>Operations staff</source>
        <translation>运维人员</translation>
    </message>
    <message>
        <source>Spares</source>
        <translation>备件</translation>
    </message>
    <message>
        <source>Period compared</source>
        <translation>比较期间</translation>
    </message>
    <message>
        <source>Jobs in the period</source>
        <translation>期间内任务数</translation>
    </message>
    <message>
        <source>What one server (node) of the plan&apos;s GPUs costs to buy</source>
        <translation>购买一台装有方案所用 GPU 的服务器（节点）的价格</translation>
    </message>
    <message>
        <source>Straight-line life of the hardware, no resale value</source>
        <translation>硬件按直线法折旧的年限，不计残值</translation>
    </message>
    <message>
        <source>Rack space, cooling and network at a colocation site, per server and month</source>
        <translation>托管机房的机柜空间、制冷和网络费用，按每台服务器每月计</translation>
    </message>
    <message>
        <source>Power one server draws at full load</source>
        <translation>一台服务器满载时的功率</translation>
    </message>
    <message>
        <source>Electricity price you pay per kWh</source>
        <translation>你支付的每千瓦时电价</translation>
    </message>
    <message>
        <source>Data-centre power usage effectiveness: facility power ÷ IT power</source>
        <translation>数据中心电能使用效率：总设施功率 ÷ IT 设备功率</translation>
    </message>
    <message>
        <source>Operations staff for these servers, per month</source>
        <translation>这些服务器的运维人员费用，按月计</translation>
    </message>
    <message>
        <source>Spare parts and replaced cards, as a share of the hardware price per year</source>
        <translation>备件及更换显卡的费用，按每年占硬件价格的比例计</translation>
    </message>
    <message>
        <source>How long the comparison runs; empty: this job alone</source>
        <translation>比较覆盖多长时间；留空：仅此任务</translation>
    </message>
    <message>
        <source>How many jobs like this one run in that period</source>
        <translation>这段时间内运行多少个同类任务</translation>
    </message>
    <message>
        <source>Empty fields use the dated public figure shown in grey (hover for its source). The Plans page and the report compare renting the work with buying and running these servers, part by part, and give the utilisation at which owning breaks even.</source>
        <translation>留空的字段使用灰色显示的、注明日期的公开数据（悬停查看来源）。“方案”页和报告会逐项比较租用与购买并运行这些服务器的费用，并给出自有达到盈亏平衡所需的利用率。</translation>
    </message>
    <message>
        <source>{0}/hr</source>
        <translation>{0}/小时</translation>
    </message>
    <message>
        <source>{0}/wk</source>
        <translation>{0}/周</translation>
    </message>
    <message>
        <source>{0}/mo</source>
        <translation>{0}/月</translation>
    </message>
    <message>
        <source>Spot price &apos;{0}&apos; for {1} is not a number; it was not changed.</source>
        <translation>{1} 的竞价价格“{0}”不是数字，未作修改。</translation>
    </message>
    <message>
        <source>Spot price &apos;{0}&apos; for {1} is below zero; it was not changed.</source>
        <translation>{1} 的竞价价格“{0}”小于零，未作修改。</translation>
    </message>
    <message>
        <source>Price &apos;{0}&apos; for {1} is below zero; it was not changed.</source>
        <translation>{1} 的价格“{0}”小于零，未作修改。</translation>
    </message>
</context>
<context>
    <name>Health</name>
    <message>
        <source>line {n}: {msg}</source>
        <translation>第 {n} 行：{msg}</translation>
    </message>
    <message>
        <source>this is too long for tool output (over {n} MB)</source>
        <translation>内容过长，不像工具输出（超过 {n} MB）</translation>
    </message>
    <message>
        <source>not a line of &apos;nvidia-smi -q&apos; output: &apos;{text}&apos;</source>
        <translation>不是“nvidia-smi -q”输出中的行：“{text}”</translation>
    </message>
    <message>
        <source>empty input: paste the output of &apos;nvidia-smi -q&apos;</source>
        <translation>输入为空：请粘贴“nvidia-smi -q”的输出</translation>
    </message>
    <message>
        <source>no GPU section found: paste the output of &apos;nvidia-smi -q&apos; (from &apos;==NVSMI LOG==&apos; on)</source>
        <translation>未找到 GPU 段落：请粘贴“nvidia-smi -q”的输出（从“==NVSMI LOG==”开始）</translation>
    </message>
    <message>
        <source>graphics engine exception (usually the application)</source>
        <translation>图形引擎异常（通常是应用程序问题）</translation>
    </message>
    <message>
        <source>GPU memory page fault (usually the application)</source>
        <translation>GPU 显存页错误（通常是应用程序问题）</translation>
    </message>
    <message>
        <source>GPU stopped processing (usually the application)</source>
        <translation>GPU 停止处理（通常是应用程序问题）</translation>
    </message>
    <message>
        <source>preemptive cleanup after a previous error</source>
        <translation>前一错误之后的抢占式清理</translation>
    </message>
    <message>
        <source>double-bit ECC error</source>
        <translation>双比特 ECC 错误</translation>
    </message>
    <message>
        <source>internal micro-controller breakpoint/warning</source>
        <translation>内部微控制器断点/警告</translation>
    </message>
    <message>
        <source>internal micro-controller halt</source>
        <translation>内部微控制器停机</translation>
    </message>
    <message>
        <source>ECC page retirement or row remapping recorded (reset the GPU)</source>
        <translation>已记录 ECC 页退役或行重映射（需重置 GPU）</translation>
    </message>
    <message>
        <source>ECC page retirement or row remapping failed</source>
        <translation>ECC 页退役或行重映射失败</translation>
    </message>
    <message>
        <source>NVLink error</source>
        <translation>NVLink 错误</translation>
    </message>
    <message>
        <source>GPU has fallen off the bus</source>
        <translation>GPU 已从总线掉线</translation>
    </message>
    <message>
        <source>high single-bit ECC error rate</source>
        <translation>单比特 ECC 错误率过高</translation>
    </message>
    <message>
        <source>contained ECC error</source>
        <translation>已隔离的 ECC 错误</translation>
    </message>
    <message>
        <source>uncontained ECC error</source>
        <translation>未能隔离的 ECC 错误</translation>
    </message>
    <message>
        <source>GSP RPC timeout</source>
        <translation>GSP RPC 超时</translation>
    </message>
    <message>
        <source>GSP error</source>
        <translation>GSP 错误</translation>
    </message>
    <message>
        <source>not a line of &apos;npu-smi info&apos; output: &apos;{text}&apos;</source>
        <translation>不是“npu-smi info”输出中的行：“{text}”</translation>
    </message>
    <message>
        <source>cannot read this npu-smi process row: &apos;{text}&apos;</source>
        <translation>无法解析这一 npu-smi 进程行：“{text}”</translation>
    </message>
    <message>
        <source>expected an npu-smi row with 3 columns, got &apos;{text}&apos;</source>
        <translation>应为 3 列的 npu-smi 行，实际为“{text}”</translation>
    </message>
    <message>
        <source>expected &apos;| NPU Name | Health | ...&apos;, got &apos;{text}&apos;</source>
        <translation>应为“| NPU Name | Health | ...”，实际为“{text}”</translation>
    </message>
    <message>
        <source>expected &apos;| Chip | Bus-Id | ...&apos;, got &apos;{text}&apos;</source>
        <translation>应为“| Chip | Bus-Id | ...”，实际为“{text}”</translation>
    </message>
    <message>
        <source>the npu-smi row for NPU {n} has no chip row after it</source>
        <translation>NPU {n} 的 npu-smi 行之后缺少芯片行</translation>
    </message>
    <message>
        <source>no NPU rows found: paste the output of &apos;npu-smi info&apos;</source>
        <translation>未找到 NPU 行：请粘贴“npu-smi info”的输出</translation>
    </message>
    <message>
        <source>expected the rocm-smi table header (&apos;GPU  Temp  AvgPwr ...&apos; or &apos;Device  Node  IDs  Temp ...&apos;), got &apos;{text}&apos;</source>
        <translation>应为 rocm-smi 表头（“GPU  Temp  AvgPwr ...”或“Device  Node  IDs  Temp ...”，Node 即节点），实际为“{text}”</translation>
    </message>
    <message>
        <source>expected a rocm-smi row starting with the device number, got &apos;{text}&apos;</source>
        <translation>应为以设备编号开头的 rocm-smi 行，实际为“{text}”</translation>
    </message>
    <message>
        <source>rocm-smi row has {got} columns, the header {want}: &apos;{text}&apos;</source>
        <translation>rocm-smi 行有 {got} 列，表头有 {want} 列：“{text}”</translation>
    </message>
    <message>
        <source>no GPU rows found: paste the output of &apos;rocm-smi&apos;</source>
        <translation>未找到 GPU 行：请粘贴“rocm-smi”的输出</translation>
    </message>
    <message>
        <source>Blackwell (sm_100) needs CUDA 12.8 or newer</source>
        <translation>Blackwell（sm_100）需要 CUDA 12.8 或更新版本</translation>
    </message>
    <message>
        <source>Hopper (sm_90) needs CUDA 11.8 or newer</source>
        <translation>Hopper（sm_90）需要 CUDA 11.8 或更新版本</translation>
    </message>
    <message>
        <source>Driver {driver} supports CUDA {cuda} at most: {why}. Ask for a newer driver.</source>
        <translation>驱动 {driver} 最高只支持 CUDA {cuda}：{why}。请要求更新驱动。</translation>
    </message>
    <message>
        <source>Driver {driver} supports CUDA {cuda} at most: current PyTorch releases ship CUDA 12 builds, which need a driver of version 525 or newer; only CUDA 11.8 builds will run.</source>
        <translation>驱动 {driver} 最高只支持 CUDA {cuda}：当前 PyTorch 版本提供 CUDA 12 构建，需要 525 或更新的驱动；只能运行 CUDA 11.8 构建。</translation>
    </message>
    <message>
        <source>Driver {driver}, CUDA {cuda}: recent enough for current PyTorch builds.</source>
        <translation>驱动 {driver}、CUDA {cuda}：足以运行当前的 PyTorch 构建。</translation>
    </message>
    <message>
        <source>{gpus} at {t:.0f} °C, within 5 °C of the slowdown temperature ({s:.0f} °C): cooling is failing.</source>
        <translation>{gpus} 温度 {t:.0f} °C，距降频温度（{s:.0f} °C）不到 5 °C：散热不足。</translation>
    </message>
    <message>
        <source>{gpus} at or above the max operating temperature ({t:.0f} °C): the driver lowers clocks to stay there.</source>
        <translation>{gpus} 达到或超过最高工作温度（{t:.0f} °C）：驱动会降低频率以维持温度。</translation>
    </message>
    <message>
        <source>Temperatures {lo:.0f}–{hi:.0f} °C, below the cards&apos; limits.</source>
        <translation>温度 {lo:.0f}–{hi:.0f} °C，低于卡的限值。</translation>
    </message>
    <message>
        <source>{gpus}: clocks slowed by {reasons} (heat or power delivery): the card cannot hold its clocks.</source>
        <translation>{gpus}：频率因 {reasons} 而降低（过热或供电）：卡无法维持正常频率。</translation>
    </message>
    <message>
        <source>{gpus}: running at the power limit (SW Power Cap active): normal under full load, a problem if the limit is below the TDP.</source>
        <translation>{gpus}：正运行在功耗上限（SW Power Cap 生效）：满载时属正常，若上限低于 TDP 则有问题。</translation>
    </message>
    <message>
        <source>No clock slowdown (thermal or power) is active.</source>
        <translation>没有因温度或功耗导致的降频。</translation>
    </message>
    <message>
        <source>{gpus}: power limit {lim:.0f} W, below the {ref:.0f} W TDP: the cards are capped and train slower.</source>
        <translation>{gpus}：功耗上限 {lim:.0f} W，低于 {ref:.0f} W 的 TDP：卡被限功耗，训练会变慢。</translation>
    </message>
    <message>
        <source>{gpus}: uncorrectable ECC errors since the driver loaded: data may be corrupt; ask for another card.</source>
        <translation>{gpus}：驱动加载以来出现不可纠正的 ECC 错误：数据可能已损坏；请要求更换卡。</translation>
    </message>
    <message>
        <source>{gpus}: a memory row remap / page retirement is pending: the GPU needs a reset before use.</source>
        <translation>{gpus}：有待生效的显存行重映射/页退役：使用前需重置 GPU。</translation>
    </message>
    <message>
        <source>{gpus}: row remapping failed (no spare rows left): the card should be replaced.</source>
        <translation>{gpus}：行重映射失败（没有备用行）：应更换此卡。</translation>
    </message>
    <message>
        <source>{gpus}: uncorrectable memory errors in the card&apos;s history (remapped or retired): it works, but it has failed before.</source>
        <translation>{gpus}：卡的历史记录中有不可纠正的显存错误（已重映射或退役）：目前可用，但曾经出过故障。</translation>
    </message>
    <message>
        <source>No uncorrectable ECC errors, nothing pending a reset.</source>
        <translation>没有不可纠正的 ECC 错误，也没有待重置的项目。</translation>
    </message>
    <message>
        <source>{gpus}: processes already running ({procs}): the machine is not dedicated to you, or a previous job was left behind.</source>
        <translation>{gpus}：已有进程在运行（{procs}）：机器不是你独享的，或有之前的任务残留。</translation>
    </message>
    <message>
        <source>{gpus}: {mib:.0f} MiB of memory in use but no process visible (another container?).</source>
        <translation>{gpus}：已占用 {mib:.0f} MiB 显存但看不到进程（另一个容器？）。</translation>
    </message>
    <message>
        <source>The server reports {names}, but the plan is for {gpu}.</source>
        <translation>服务器报告的是 {names}，但方案针对的是 {gpu}。</translation>
    </message>
    <message>
        <source>see NVIDIA&apos;s Xid catalog</source>
        <translation>见 NVIDIA 的 Xid 目录</translation>
    </message>
    <message>
        <source>Xid {code} ({meaning}) {k}× on {pci}.</source>
        <translation>Xid {code}（{meaning}）在 {pci} 上出现 {k} 次。</translation>
    </message>
    <message>
        <source>No Xid errors in the kernel log.</source>
        <translation>内核日志中没有 Xid 错误。</translation>
    </message>
    <message>
        <source>NPU {npu} chip {chip}: health &apos;{h}&apos; (npu-smi); ask the vendor before renting it.</source>
        <translation>NPU {npu} 芯片 {chip}：健康状态“{h}”（npu-smi）；租用前请询问供应商。</translation>
    </message>
    <message>
        <source>All {k} NPU chips report health OK.</source>
        <translation>全部 {k} 个 NPU 芯片健康状态为 OK。</translation>
    </message>
    <message>
        <source>{k} processes already run on the NPUs ({names}): not a dedicated machine, or a job left behind.</source>
        <translation>NPU 上已有 {k} 个进程在运行（{names}）：不是独享机器，或有任务残留。</translation>
    </message>
    <message>
        <source>{k} NPU chips hold up to {mb:.0f} MB of HBM (an idle chip about {idle:.0f} MB) with no process listed: another container may be using them.</source>
        <translation>{k} 个 NPU 芯片占用最多 {mb:.0f} MB HBM（空闲芯片约 {idle:.0f} MB）且没有列出进程：可能有其他容器在使用。</translation>
    </message>
    <message>
        <source>GPU {devs}: power cap {cap:.0f} W, below the {tdp:.0f} W TDP of {gpu}: the cards are capped.</source>
        <translation>GPU {devs}：功耗上限 {cap:.0f} W，低于 {gpu} 的 {tdp:.0f} W TDP：卡被限功耗。</translation>
    </message>
    <message>
        <source>Power caps at the {tdp:.0f} W TDP.</source>
        <translation>功耗上限为 {tdp:.0f} W TDP。</translation>
    </message>
    <message>
        <source>GPU {devs} busy before your job (GPU% or VRAM% above zero): not a dedicated machine, or a job left behind.</source>
        <translation>GPU {devs} 在你的任务之前就已忙碌（GPU% 或 VRAM% 大于零）：不是独享机器，或有任务残留。</translation>
    </message>
    <message>
        <source>Temperatures {lo:.0f}–{hi:.0f} °C.</source>
        <translation>温度 {lo:.0f}–{hi:.0f} °C。</translation>
    </message>
    <message>
        <source>These are {have} accelerators, but the plan is for {gpu} ({want}).</source>
        <translation>这些是 {have} 加速卡，但方案针对的是 {gpu}（{want}）。</translation>
    </message>
</context>
<context>
    <name>HfCache</name>
    <message>
        <source>{file}: the cache&apos;s ref does not hold a commit hash</source>
        <translation>{file}：缓存中的 ref 文件里没有提交哈希</translation>
    </message>
    <message>
        <source>&apos;{id}&apos; is not a Hugging Face model id</source>
        <translation>“{id}”不是 Hugging Face 模型 ID</translation>
    </message>
    <message>
        <source>&apos;{id}&apos; is neither a file here nor a model in the local Hugging Face cache ({cache}); download its config.json (huggingface-cli download {id} config.json) or choose the model&apos;s folder</source>
        <translation>“{id}”既不是此处的文件，也不是本地 Hugging Face 缓存（{cache}）中的模型；请下载它的 config.json（huggingface-cli download {id} config.json），或选择模型所在的文件夹</translation>
    </message>
    <message>
        <source>&apos;{id}&apos; in the Hugging Face cache: refs/{revision} links outside the model&apos;s folder</source>
        <translation>Hugging Face 缓存中的“{id}”：refs/{revision} 链接到了模型文件夹之外</translation>
    </message>
    <message>
        <source>no snapshot</source>
        <translation>没有快照</translation>
    </message>
    <message>
        <source>{n} snapshots and no refs/{revision}</source>
        <translation>有 {n} 个快照，但没有 refs/{revision}</translation>
    </message>
    <message>
        <source>&apos;{id}&apos; in the Hugging Face cache: {why}; give the commit as {id}@&lt;commit&gt; or choose the snapshot folder</source>
        <translation>Hugging Face 缓存中的“{id}”：{why}；请以 {id}@&lt;commit&gt; 的形式给出提交，或选择快照文件夹</translation>
    </message>
    <message>
        <source>&apos;{id}&apos; in the Hugging Face cache: snapshot {commit} is missing</source>
        <translation>Hugging Face 缓存中的“{id}”：缺少快照 {commit}</translation>
    </message>
    <message>
        <source>&apos;{id}&apos; in the Hugging Face cache has no config.json; download it (huggingface-cli download {id} config.json)</source>
        <translation>Hugging Face 缓存中的“{id}”没有 config.json；请下载它（huggingface-cli download {id} config.json）</translation>
    </message>
</context>
<context>
    <name>Inference</name>
    <message>
        <source>engine loop must be one of {choices}, not {loop}</source>
        <translation>引擎循环必须是 {choices} 之一，而不是 {loop}</translation>
    </message>
    <message>
        <source>TP {tp} would need {n} cards, but leaves {kv:.1f} GiB of KV cache per card: a current vLLM keeps up to {graphs:.1f} GiB per card for CUDA graphs before sizing it, which would leave no room for one request. Planned at TP {best_tp} ({best_n} cards).</source>
        <translation>TP {tp} 需要 {n} 张卡，但每卡只留下 {kv:.1f} GiB 的 KV 缓存：新版 vLLM 在划分 KV 缓存前会为 CUDA 图预留每卡至多 {graphs:.1f} GiB，这样连一个请求的空间都不剩。因此按 TP {best_tp}（{best_n} 张卡）规划。</translation>
    </message>
    <message>
        <source>{p} weights: check the quality on your own evaluation set before serving.</source>
        <translation>{p} 权重：上线服务前请在自己的评测集上检查效果。</translation>
    </message>
    <message>
        <source>a spread of request lengths needs the run&apos;s number of requests</source>
        <translation>请求长度分布需要本次运行的请求数</translation>
    </message>
    <message>
        <source>request length spread must be one of {choices}, not {spread}</source>
        <translation>请求长度分布必须是 {choices} 之一，而不是 {spread}</translation>
    </message>
    <message>
        <source>mean lengths outside the ShareGPT filter (prompt 4-1024, prompt + output 2048 tokens)</source>
        <translation>平均长度超出 ShareGPT 筛选范围（提示 4–1024 个 token，提示加输出不超过 2048 个 token）</translation>
    </message>
    <message>
        <source>{gpu} has no FP8 tensor cores: vLLM runs the FP8 weights weight-only (W8A16, FP8 Marlin kernel), so they take half the memory of 16-bit weights while the matrix products run at the 16-bit rate (counted in the time).</source>
        <translation>{gpu} 没有 FP8 张量核心：vLLM 以仅权重方式运行 FP8 权重（W8A16，FP8 Marlin 内核），权重显存为 16 位的一半，矩阵乘法按 16 位速率计算（已计入时间）。</translation>
    </message>
</context>
<context>
    <name>Intake</name>
    <message>
        <source>Approximate: architecture &apos;{model_type}&apos; not recognised, counted as decoder-only (Llama-like); check the parameter count ({total:,}) against the model card.</source>
        <translation>近似值：未识别架构“{model_type}”，按仅解码器（类 Llama）计算；请对照模型卡核对参数量（{total:,}）。</translation>
    </message>
    <message>
        <source>Approximate: {sections} of the model&apos;s config.json is not counted; only the language model is estimated.</source>
        <translation>近似值：模型 config.json 中的 {sections} 未计入；只估算语言模型部分。</translation>
    </message>
    <message>
        <source>The weights hold {weights:,} parameters, config.json describes {config:,} ({diff:+,}, {pct:+.1%}); memory is sized from the weights.</source>
        <translation>权重文件含 {weights:,} 个参数，config.json 描述的是 {config:,} 个（{diff:+,}，{pct:+.1%}）；显存按权重文件计算。</translation>
    </message>
    <message>
        <source>The weights are stored as {dtype} (quantised): their size does not give the parameter count; config.json&apos;s count is used.</source>
        <translation>权重以 {dtype}（量化）存储：其大小不能反映参数量；改用 config.json 的参数量。</translation>
    </message>
    <message>
        <source>seq_len {seq:,} is longer than the model&apos;s context of {ctx:,} tokens: the estimate uses your length, but the model needs RoPE scaling or long-context training for it.</source>
        <translation>seq_len {seq:,} 超过模型的上下文长度 {ctx:,} 个 token：估算按你的长度计算，但模型需要 RoPE 缩放或长上下文训练才能支持。</translation>
    </message>
    <message>
        <source>The images take {tokens:,.0f} tokens per sample ({n:g} × {per:,}), more than seq_len {seq:,}: raise seq_len or use fewer or smaller images.</source>
        <translation>每个样本的图像占 {tokens:,.0f} 个 token（{n:g} × {per:,}），超过 seq_len {seq:,}：请调大 seq_len，或减少图像数量、缩小图像。</translation>
    </message>
    <message>
        <source>The {pp}-stage pipeline gets only {m} micro-batch(es) per step, so most of each step is pipeline bubble (see the time share). Give more sequences per step (global batch) or, with torchtitan, a smaller pipeline micro-batch (training.pipeline_microbatch_size).</source>
        <translation>{pp} 级流水线每步只有 {m} 个微批次，因此每步的大部分时间是流水线气泡（见时间占比）。请增加每步的序列数（全局批次），或在 torchtitan 下减小流水线微批次（training.pipeline_microbatch_size）。</translation>
    </message>
    <message>
        <source>CPU offload needs {need:,.0f} GiB of host RAM per node; the node has {have:,.0f} GiB.</source>
        <translation>CPU 卸载每节点需要 {need:,.0f} GiB 主机内存；该节点只有 {have:,.0f} GiB。</translation>
    </message>
    <message>
        <source>CPU offload needs about {need:,.0f} GiB of host RAM per server (the offloaded states × {buf:g} for pinned buffers): ask the vendor for servers with that much CPU memory, or enter it (CPU memory per server) to check it.</source>
        <translation>CPU 卸载每台服务器约需 {need:,.0f} GiB 主机内存（卸载的状态 × {buf:g}，用于锁页缓冲）：请向供应商要这么多 CPU 内存的服务器，或填写“每台服务器 CPU 内存”以便核对。</translation>
    </message>
</context>
<context>
    <name>KindChecks</name>
    <message>
        <source>Tick at least one kind of quote</source>
        <translation>请至少勾选一种报价</translation>
    </message>
</context>
<context>
    <name>LivePanel</name>
    <message>
        <source>{0} · {1} params</source>
        <translation>{0} · {1} 参数</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>{0} × {1} · MFU {2}</source>
        <translation>{0} × {1} · MFU {2}</translation>
    </message>
    <message>
        <source>{0} · {1} total, {2} active params</source>
        <translation>{0} · 总参数 {1}，激活 {2}</translation>
    </message>
    <message>
        <source>{0} per GPU — {1}</source>
        <translation>单卡 {0} — {1}</translation>
    </message>
    <message>
        <source>host RAM for offload: {0} GiB per node</source>
        <translation>卸载所需主机内存：每节点 {0} GiB</translation>
    </message>
    <message>
        <source> of {0}</source>
        <translation>（共 {0}）</translation>
    </message>
    <message>
        <source>{0} in calendar time ({1} of compute)</source>
        <translation>日历时间 {0}（算力 {1}）</translation>
    </message>
    <message>
        <source>no price: it does not fit</source>
        <translation>不报价：放不下</translation>
    </message>
    <message>
        <source>{0} ({1})</source>
        <translation>{0}（{1}）</translation>
    </message>
    <message>
        <source>Calendar time: what you wait, with setup, checkpoints, interruptions and your hours per week. Compute time: GPU time around the clock.</source>
        <translation>日历时间：你实际等待的时间，含环境准备、检查点、中断和你每周的工作小时数。算力时间：GPU 全天候运行的时间。</translation>
    </message>
    <message>
        <source>Likely range: {0}{1}.</source>
        <translation>可能范围：{0}{1}。</translation>
    </message>
    <message>
        <source>{0} {1}</source>
        <translation>{0} {1}</translation>
    </message>
    <message>
        <source>rollouts the training does not hide: {0} of each step</source>
        <translation>训练未能掩盖的采样：占每步的 {0}</translation>
    </message>
    <message>
        <source>rollouts: {0} of each step</source>
        <translation>采样：占每步的 {0}</translation>
    </message>
    <message>
        <source>{0}, of which {1}</source>
        <translation>{0}，其中{1}</translation>
    </message>
    <message>
        <source>Searching for plans…</source>
        <translation>正在搜索方案…</translation>
    </message>
    <message>
        <source>The plan search failed: {0}</source>
        <translation>方案搜索失败：{0}</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>, {0}</source>
        <translation>，{0}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Report author</source>
        <translation>报告作者</translation>
    </message>
    <message>
        <source>Author or team shown on printed plans:</source>
        <translation>打印方案上显示的作者或团队：</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Training setup</source>
        <translation>训练设置</translation>
    </message>
    <message>
        <source>Data volume</source>
        <translation>数据量</translation>
    </message>
    <message>
        <source>Time and budget</source>
        <translation>时间与预算</translation>
    </message>
    <message>
        <source>Hardware and prices</source>
        <translation>硬件与价格</translation>
    </message>
    <message>
        <source>Plans</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Verify server</source>
        <translation>验证服务器</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Vendor quotes</source>
        <translation>供应商报价</translation>
    </message>
    <message>
        <source>← Back</source>
        <translation>← 上一步</translation>
    </message>
    <message>
        <source>Previous step (Alt+Left)</source>
        <translation>上一步（Alt+左方向键）</translation>
    </message>
    <message>
        <source>Next →</source>
        <translation>下一步 →</translation>
    </message>
    <message>
        <source>Next step (Alt+Right)</source>
        <translation>下一步（Alt+右方向键）</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>转到(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Re&amp;vert to Saved</source>
        <translation>还原到已保存(&amp;V)</translation>
    </message>
    <message>
        <source>Recover &amp;Unsaved Work…</source>
        <translation>恢复未保存的工作(&amp;U)…</translation>
    </message>
    <message>
        <source>Export Charts as PNG…</source>
        <translation>将图表导出为 PNG…</translation>
    </message>
    <message>
        <source>Print Pre&amp;view…</source>
        <translation>打印预览(&amp;V)…</translation>
    </message>
    <message>
        <source>&amp;Print…</source>
        <translation>打印(&amp;P)…</translation>
    </message>
    <message>
        <source>Export P&amp;DF…</source>
        <translation>导出 PDF(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>上一步(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>下一步(&amp;N)</translation>
    </message>
    <message>
        <source>Search &amp;Again</source>
        <translation>重新搜索(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;About GPU Planner</source>
        <translation>关于 GPU Planner(&amp;A)</translation>
    </message>
    <message>
        <source>Report &amp;Author…</source>
        <translation>报告作者(&amp;A)…</translation>
    </message>
    <message>
        <source>System Default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>{0}. {1}</source>
        <translation>{0}. {1}</translation>
    </message>
    <message>
        <source>{0}  {1}</source>
        <translation>{0}  {1}</translation>
    </message>
    <message>
        <source>Untitled plan</source>
        <translation>未命名方案</translation>
    </message>
    <message>
        <source>{0}[*] — GPU Planner</source>
        <translation>{0}[*] — GPU Planner</translation>
    </message>
    <message>
        <source>Searching plans…</source>
        <translation>正在搜索方案…</translation>
    </message>
    <message numerus="yes">
        <source>%n plan(s)</source>
        <translation>
            <numerusform>%n 个方案</numerusform>
        </translation>
    </message>
    <message>
        <source>Plan search failed</source>
        <translation>方案搜索失败</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>Autosave failed: {0}</source>
        <translation>自动保存失败：{0}</translation>
    </message>
    <message>
        <source>Steps: click any step, or press Ctrl+1 … Ctrl+{0}</source>
        <translation>步骤：点击任意步骤，或按 Ctrl+1 … Ctrl+{0}</translation>
    </message>
    <message>
        <source>Your changes are not backed up. Save the plan to keep them.</source>
        <translation>你的修改还没有备份。请保存方案以免丢失。</translation>
    </message>
    <message>
        <source>Export charts to folder</source>
        <translation>将图表导出到文件夹</translation>
    </message>
    <message>
        <source>Cannot export charts</source>
        <translation>无法导出图表</translation>
    </message>
    <message>
        <source>Exported {0} charts to {1}</source>
        <translation>已将 {0} 张图表导出到 {1}</translation>
    </message>
    <message>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>About GPU Planner</source>
        <translation>关于 GPU Planner</translation>
    </message>
    <message>
        <source>&lt;b&gt;GPU Planner {0}&lt;/b&gt;&lt;p&gt;Describe the training task; GPU Planner derives what to rent. Offline: it never touches the network. Every formula and catalog number names its source.&lt;/p&gt;</source>
        <translation>&lt;b&gt;GPU Planner {0}&lt;/b&gt;&lt;p&gt;描述你的训练任务，GPU Planner 推算出该租什么。完全离线：从不访问网络。每个公式和目录数据都注明了来源。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Export report as PDF</source>
        <translation>导出报告为 PDF</translation>
    </message>
    <message>
        <source>PDF documents (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Report written to {0}</source>
        <translation>报告已写入 {0}</translation>
    </message>
</context>
<context>
    <name>MemoryChart</name>
    <message>
        <source>Memory per GPU (GiB)</source>
        <translation>单卡显存（GiB）</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>Reference model</source>
        <translation>参考模型</translation>
    </message>
    <message>
        <source>Reward model</source>
        <translation>奖励模型</translation>
    </message>
    <message>
        <source>Critic</source>
        <translation>评论家模型</translation>
    </message>
    <message>
        <source>vLLM weights</source>
        <translation>vLLM 权重</translation>
    </message>
    <message>
        <source>Rollout KV cache</source>
        <translation>采样 KV 缓存</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>Current</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>ZeRO-{0}</source>
        <translation>ZeRO-{0}</translation>
    </message>
    <message>
        <source>No estimate yet.</source>
        <translation>尚无估算结果。</translation>
    </message>
    <message>
        <source>capacity {0} GiB</source>
        <translation>容量 {0} GiB</translation>
    </message>
    <message>
        <source>no recompute</source>
        <translation>不重计算</translation>
    </message>
    <message>
        <source>recompute some</source>
        <translation>部分重计算</translation>
    </message>
    <message>
        <source>recompute ops</source>
        <translation>按算子重计算</translation>
    </message>
    <message>
        <source>recompute layers</source>
        <translation>按层重计算</translation>
    </message>
    <message>
        <source>recompute all</source>
        <translation>全部重计算</translation>
    </message>
    <message>
        <source>{0}: {1} GiB</source>
        <translation>{0}：{1} GiB</translation>
    </message>
    <message>
        <source>Total: {0} of {1} GiB</source>
        <translation>合计：{0} / {1} GiB</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
</context>
<context>
    <name>MemoryCountChart</name>
    <message>
        <source>Memory per GPU against GPU count</source>
        <translation>单卡显存随 GPU 数量的变化</translation>
    </message>
    <message>
        <source>For this model and training method: the layout (TP, PP, ZeRO…) that needs the least memory at each GPU count, your own layout at that count, and the memory of each GPU you ticked on the Hardware page.</source>
        <translation>针对当前模型和训练方法：每个 GPU 数量下单卡显存最少的并行布局（TP、PP、ZeRO…）、你自己的布局在该数量下的显存，以及硬件页上勾选的每种 GPU 的显存容量。</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>GiB per GPU</source>
        <translation>单卡 GiB</translation>
    </message>
    <message>
        <source>least memory (best layout)</source>
        <translation>显存最少（最佳布局）</translation>
    </message>
    <message>
        <source>your layout</source>
        <translation>你的布局</translation>
    </message>
    <message>
        <source>{0} GiB:</source>
        <translation>{0} GiB：</translation>
    </message>
    <message>
        <source>No estimate yet.</source>
        <translation>尚无估算结果。</translation>
    </message>
    <message>
        <source>No layout of this scenario runs at these GPU counts.</source>
        <translation>在这些 GPU 数量下，此场景没有可运行的布局。</translation>
    </message>
    <message>
        <source>{0} GiB</source>
        <translation>{0} GiB</translation>
    </message>
    <message>
        <source>{0} GPUs: {1} GiB per GPU</source>
        <translation>{0} 张 GPU：单卡 {1} GiB</translation>
    </message>
    <message>
        <source>least-memory layout: {0}</source>
        <translation>显存最少的布局：{0}</translation>
    </message>
    <message>
        <source>your layout: {0} GiB</source>
        <translation>你的布局：{0} GiB</translation>
    </message>
    <message>
        <source>fits on: {0}</source>
        <translation>放得下：{0}</translation>
    </message>
    <message>
        <source>fits on none of the ticked GPUs</source>
        <translation>勾选的 GPU 都放不下</translation>
    </message>
    <message>
        <source>{0} GPUs, your layout: {1} GiB per GPU</source>
        <translation>{0} 张 GPU，你的布局：单卡 {1} GiB</translation>
    </message>
</context>
<context>
    <name>ModelConfig</name>
    <message>
        <source>missing &apos;{key}&apos;</source>
        <translation>缺少“{key}”</translation>
    </message>
    <message>
        <source>&apos;{key}&apos; must be a whole number ≥ {minimum}, got {got}</source>
        <translation>“{key}”应为 ≥ {minimum} 的整数，实际为 {got}</translation>
    </message>
    <message>
        <source>&apos;{key}&apos; must be a positive number, got {got}</source>
        <translation>“{key}”应为正数，实际为 {got}</translation>
    </message>
    <message>
        <source>&apos;{key}&apos; must be an object</source>
        <translation>“{key}”应为对象</translation>
    </message>
    <message>
        <source>hidden_size={h} is not divisible by {key}={heads}; give head_dim</source>
        <translation>hidden_size={h} 不能被 {key}={heads} 整除；请给出 head_dim</translation>
    </message>
    <message>
        <source>OPT with word_embed_proj_dim != hidden_size (OPT-350m) is not supported</source>
        <translation>不支持 word_embed_proj_dim != hidden_size 的 OPT 模型（OPT-350m）</translation>
    </message>
    <message>
        <source>moe_layer_freq != 1 is not supported</source>
        <translation>不支持 moe_layer_freq != 1</translation>
    </message>
    <message>
        <source>Llama 4 with interleaved dense and MoE layers (interleave_moe_layer_step &gt; 1) is not supported</source>
        <translation>不支持稠密层与 MoE 层交错的 Llama 4（interleave_moe_layer_step &gt; 1）</translation>
    </message>
    <message>
        <source>an MoE config needs &apos;{key}&apos; or &apos;{alt}&apos;</source>
        <translation>MoE 配置需要“{key}”或“{alt}”</translation>
    </message>
    <message>
        <source>&apos;{key}&apos; must be a list of layer numbers</source>
        <translation>“{key}”应为层号列表</translation>
    </message>
    <message>
        <source>interleaved dense/MoE layers (mlp_only_layers, decoder_sparse_step) are only supported as leading dense layers</source>
        <translation>稠密层与 MoE 层交错（mlp_only_layers、decoder_sparse_step）时，仅支持稠密层全部位于最前面的情况</translation>
    </message>
    <message>
        <source>config.json must be a JSON object</source>
        <translation>config.json 应为 JSON 对象</translation>
    </message>
    <message>
        <source>&apos;{key}&apos; must be 1/n</source>
        <translation>“{key}”应为 1/n</translation>
    </message>
    <message>
        <source>vision_config: image_size/patch_size must be a multiple of 1/downsample_ratio</source>
        <translation>vision_config：image_size/patch_size 应为 1/downsample_ratio 的整数倍</translation>
    </message>
    <message>
        <source>&apos;{key}&apos; lists too many layers</source>
        <translation>“{key}”列出的层过多</translation>
    </message>
    <message>
        <source>vision_config: patch_size is larger than image_size</source>
        <translation>vision_config：patch_size 大于 image_size</translation>
    </message>
    <message>
        <source>&apos;{key}&apos; must be two whole numbers, got {got}</source>
        <translation>“{key}”应为两个正整数，实际为 {got}</translation>
    </message>
    <message>
        <source>model preset {name} is malformed: {err}</source>
        <translation>模型预设 {name} 格式有误：{err}</translation>
    </message>
    <message>
        <source>; did you mean {ids}?</source>
        <translation>；你是不是要找：{ids}？</translation>
    </message>
    <message>
        <source>; see the preset list in the app or examples/</source>
        <translation>；请查看应用中的预设列表或 examples/ 文件夹</translation>
    </message>
    <message>
        <source>unknown preset &apos;{id}&apos;{hint}</source>
        <translation>未知的预设“{id}”{hint}</translation>
    </message>
    <message>
        <source>give either a preset or an hf_config, not both</source>
        <translation>预设与 hf_config 只能给出其一，不能同时给出</translation>
    </message>
    <message>
        <source>the model&apos;s config.json has not been read</source>
        <translation>尚未读取模型的 config.json</translation>
    </message>
    <message>
        <source>missing {keys} (give a preset, an hf_config, or all architecture fields)</source>
        <translation>缺少 {keys}（请给出预设、hf_config 或全部架构字段）</translation>
    </message>
    <message>
        <source>missing {keys}</source>
        <translation>缺少 {keys}</translation>
    </message>
    <message>
        <source>{key}={value} is outside {lo:,}–{hi:,}</source>
        <translation>{key}={value} 超出范围 {lo:,}–{hi:,}</translation>
    </message>
    <message>
        <source>num_attention_heads={heads} is not a multiple of num_key_value_heads={kv_heads}</source>
        <translation>num_attention_heads={heads} 不是 num_key_value_heads={kv_heads} 的整数倍</translation>
    </message>
    <message>
        <source>num_experts_per_tok={top_k} must be between 1 and num_experts={experts}</source>
        <translation>num_experts_per_tok={top_k} 应在 1 到 num_experts={experts} 之间</translation>
    </message>
    <message>
        <source>MoE models need {key}</source>
        <translation>MoE 模型需要 {key}</translation>
    </message>
    <message>
        <source>dense layers need {key}</source>
        <translation>稠密层需要 {key}</translation>
    </message>
    <message>
        <source>{key} exceeds {limit}</source>
        <translation>{key} 超过 {limit}</translation>
    </message>
    <message>
        <source>{key} must be &gt; 0</source>
        <translation>{key} 应大于 0</translation>
    </message>
    <message>
        <source>a vision encoder needs {key} &gt; 0</source>
        <translation>视觉编码器需要 {key} &gt; 0</translation>
    </message>
    <message>
        <source>{key} must be at least {minimum}</source>
        <translation>{key} 应不小于 {minimum}</translation>
    </message>
    <message>
        <source>hidden_act=relu2 (squared ReLU) is costed for a plain MLP; set gated_mlp to false</source>
        <translation>hidden_act=relu2（平方 ReLU）按不带门控的 MLP 计算；请把 gated_mlp 设为 false</translation>
    </message>
</context>
<context>
    <name>ModelFiles</name>
    <message>
        <source>{file}: expected a JSON object</source>
        <translation>{file}：应为 JSON 对象</translation>
    </message>
    <message>
        <source>{file}: cannot read ({why})</source>
        <translation>{file}：无法读取（{why}）</translation>
    </message>
    <message>
        <source>{file}: not a regular file</source>
        <translation>{file}：不是普通文件</translation>
    </message>
    <message>
        <source>{file}: truncated safetensors file</source>
        <translation>{file}：safetensors 文件不完整（被截断）</translation>
    </message>
    <message>
        <source>{file}: implausible safetensors header length {n}</source>
        <translation>{file}：safetensors 文件头长度 {n} 不合理</translation>
    </message>
    <message>
        <source>{file}: truncated safetensors header</source>
        <translation>{file}：safetensors 文件头不完整（被截断）</translation>
    </message>
    <message>
        <source>{file}: safetensors header is not valid JSON</source>
        <translation>{file}：safetensors 文件头不是有效的 JSON</translation>
    </message>
    <message>
        <source>{file}: safetensors header is not an object</source>
        <translation>{file}：safetensors 文件头不是 JSON 对象</translation>
    </message>
    <message>
        <source>{file}: tensor &apos;{tensor}&apos; has no valid shape/dtype</source>
        <translation>{file}：张量“{tensor}”没有有效的 shape/dtype</translation>
    </message>
    <message>
        <source>{file}: tensor &apos;{tensor}&apos; is implausibly large</source>
        <translation>{file}：张量“{tensor}”大得不合理</translation>
    </message>
    <message>
        <source>{file}: not found</source>
        <translation>{file}：找不到该文件</translation>
    </message>
    <message>
        <source>{folder}: the folder has no config.json</source>
        <translation>{folder}：该文件夹中没有 config.json</translation>
    </message>
    <message>
        <source>{folder}: config.json links outside the folder</source>
        <translation>{folder}：config.json 链接到了文件夹之外</translation>
    </message>
    <message>
        <source>model.hf_config &apos;{ref}&apos; points outside the plan&apos;s folder; choose the model again on the Model page</source>
        <translation>model.hf_config“{ref}”指向方案文件夹之外；请在“模型”页重新选择模型</translation>
    </message>
</context>
<context>
    <name>ModelPage</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>1 · Model</source>
        <translation>1 · 模型</translation>
    </message>
    <message>
        <source>Pick a preset, import a Hugging Face config.json or a whole model folder, or type the architecture. Fields left empty come from the preset or config; a typed value overrides it.</source>
        <translation>选择一个预设、导入 Hugging Face 的 config.json 或整个模型文件夹，或者直接填写架构。留空的字段取自预设或配置；填写的值会覆盖它。</translation>
    </message>
    <message>
        <source>Model source</source>
        <translation>模型来源</translation>
    </message>
    <message>
        <source>Search presets (name or family)…</source>
        <translation>搜索预设（名称或系列）…</translation>
    </message>
    <message>
        <source>Type part of a model name, e.g. &apos;llama 70&apos; or &apos;qwen&apos;</source>
        <translation>输入模型名称的一部分，例如“llama 70”或“qwen”</translation>
    </message>
    <message>
        <source>Import config.json…</source>
        <translation>导入 config.json…</translation>
    </message>
    <message>
        <source>Read the architecture from a Hugging Face config.json (the parameter count is computed from it)</source>
        <translation>从 Hugging Face 的 config.json 读取架构（据此计算参数量）</translation>
    </message>
    <message>
        <source>Import model folder…</source>
        <translation>导入模型文件夹…</translation>
    </message>
    <message>
        <source>Read config.json and the safetensors headers of a downloaded model: the exact stored parameter count, without loading any weights</source>
        <translation>读取已下载模型的 config.json 和 safetensors 文件头：得到精确的存储参数量，无需加载任何权重</translation>
    </message>
    <message>
        <source>Presets ship with the app; each cites its source (hover an entry)</source>
        <translation>预设随应用提供，每个都注明来源（悬停在条目上查看）</translation>
    </message>
    <message>
        <source>Model id:</source>
        <translation>模型 ID：</translation>
    </message>
    <message>
        <source>e.g. Qwen/Qwen2.5-7B</source>
        <translation>例如 Qwen/Qwen2.5-7B</translation>
    </message>
    <message>
        <source>A Hugging Face model id, read offline from the local cache ({0}); the list holds the models found there</source>
        <translation>Hugging Face 模型 ID，离线读取本地缓存（{0}）；列表为缓存中找到的模型</translation>
    </message>
    <message>
        <source>Use model id</source>
        <translation>使用该模型</translation>
    </message>
    <message>
        <source>Read config.json and the safetensors headers of this model from the local Hugging Face cache (nothing is downloaded)</source>
        <translation>从本地 Hugging Face 缓存读取该模型的 config.json 和 safetensors 文件头（不下载任何内容）</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Active per token</source>
        <translation>每 token 激活</translation>
    </message>
    <message>
        <source>Trainable</source>
        <translation>可训练</translation>
    </message>
    <message>
        <source>Every stored weight: sets the memory for weights, gradients and optimizer</source>
        <translation>所有存储的权重：决定权重、梯度和优化器所占的显存</translation>
    </message>
    <message>
        <source>Weights used per token (differs for MoE): sets the compute per token</source>
        <translation>每个 token 用到的权重（MoE 模型不同）：决定每个 token 的算力开销</translation>
    </message>
    <message>
        <source>Weights that get gradients (LoRA trains only the adapters)</source>
        <translation>需要计算梯度的权重（LoRA 只训练适配器）</translation>
    </message>
    <message>
        <source>Architecture (override or custom model)</source>
        <translation>架构（覆盖值或自定义模型）</translation>
    </message>
    <message>
        <source>Images (vision-language model)</source>
        <translation>图像（视觉语言模型）</translation>
    </message>
    <message>
        <source>Images per sample</source>
        <translation>每样本图像数</translation>
    </message>
    <message>
        <source>Images in each training sequence; their tokens count in the sequence length</source>
        <translation>每条训练序列中的图像数；图像的 token 计入序列长度</translation>
    </message>
    <message>
        <source>Image size</source>
        <translation>图像尺寸</translation>
    </message>
    <message>
        <source>Side of a (square) image in pixels, for encoders with dynamic resolution (Qwen2-VL); CLIP and SigLIP towers resize to their fixed size</source>
        <translation>（正方形）图像的边长，单位像素，用于动态分辨率编码器（Qwen2-VL）；CLIP 和 SigLIP 编码器会缩放到固定尺寸</translation>
    </message>
    <message>
        <source>Vision encoder</source>
        <translation>视觉编码器</translation>
    </message>
    <message>
        <source>frozen</source>
        <translation>冻结</translation>
    </message>
    <message>
        <source>Frozen (LLaMA-Factory&apos;s default): weights only, no gradients, optimizer states or saved activations</source>
        <translation>冻结（LLaMA-Factory 默认）：只占权重，没有梯度、优化器状态和保存的激活值</translation>
    </message>
    <message>
        <source>Projector</source>
        <translation>投影层</translation>
    </message>
    <message>
        <source>The projector (merger) between the vision encoder and the language model; frozen by default in LLaMA-Factory</source>
        <translation>视觉编码器与语言模型之间的投影层（merger）；LLaMA-Factory 默认冻结</translation>
    </message>
    <message>
        <source>Hidden size</source>
        <translation>隐藏层维度</translation>
    </message>
    <message>
        <source>Width of the residual stream (d_model); weights grow with its square</source>
        <translation>残差流宽度（d_model）；权重随其平方增长</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Number of transformer blocks; memory and compute grow linearly</source>
        <translation>Transformer 块的数量；显存和算力需求随之线性增长</translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>Query heads; tensor parallelism must divide it</source>
        <translation>查询头数；张量并行度必须能整除它</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <source>Key/value heads (GQA); fewer heads shrink the K/V projections</source>
        <translation>键/值头数（GQA）；头数越少，K/V 投影越小</translation>
    </message>
    <message>
        <source>MLP width</source>
        <translation>MLP 宽度</translation>
    </message>
    <message>
        <source>Hidden width of the feed-forward block (dense layers)</source>
        <translation>前馈块的隐藏宽度（稠密层）</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>Token vocabulary; sets the embedding and output layer and the logits memory</source>
        <translation>Token 词表；决定嵌入层、输出层以及 logits 所占显存</translation>
    </message>
    <message>
        <source>Experts (MoE)</source>
        <translation>专家数（MoE）</translation>
    </message>
    <message>
        <source>Routed experts per MoE layer; 0 for a dense model</source>
        <translation>每个 MoE 层的路由专家数；稠密模型填 0</translation>
    </message>
    <message>
        <source>Experts per token</source>
        <translation>每 token 专家数</translation>
    </message>
    <message>
        <source>Experts each token is routed to: sets the active parameters</source>
        <translation>每个 token 路由到的专家数：决定激活参数量</translation>
    </message>
    <message>
        <source>Expert MLP width</source>
        <translation>专家 MLP 宽度</translation>
    </message>
    <message>
        <source>Hidden width of one expert&apos;s feed-forward block</source>
        <translation>单个专家前馈块的隐藏宽度</translation>
    </message>
    <message>
        <source>Make custom copy</source>
        <translation>创建自定义副本</translation>
    </message>
    <message>
        <source>Copy the current architecture into the fields and drop the preset, to describe a model that is not in the list</source>
        <translation>把当前架构复制到各字段并脱离预设，用来描述列表中没有的模型</translation>
    </message>
    <message>
        <source>Clear overrides</source>
        <translation>清除覆盖值</translation>
    </message>
    <message>
        <source>Empty the fields so every value comes from the preset or config again</source>
        <translation>清空字段，让所有值重新取自预设或配置</translation>
    </message>
    <message>
        <source>Import config.json</source>
        <translation>导入 config.json</translation>
    </message>
    <message>
        <source>Model config (*.json);;All files (*)</source>
        <translation>模型配置 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Import model folder</source>
        <translation>导入模型文件夹</translation>
    </message>
    <message>
        <source>Cannot import {0}: {1}</source>
        <translation>无法导入 {0}：{1}</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is not a Hugging Face model id (organisation/name)</source>
        <translation>“{0}”不是 Hugging Face 模型 ID（组织/名称）</translation>
    </message>
    <message>
        <source>Preset: {0} — source: {1} ({2})</source>
        <translation>预设：{0} — 来源：{1}（{2}）</translation>
    </message>
    <message>
        <source>Preset: {0} — not in the catalog: pick one from the list</source>
        <translation>预设：{0} — 不在预设目录中：请从列表中选择一个</translation>
    </message>
    <message>
        <source>Hugging Face model {0}, read from the local cache</source>
        <translation>Hugging Face 模型 {0}，读自本地缓存</translation>
    </message>
    <message>
        <source>Imported: {0}</source>
        <translation>已导入：{0}</translation>
    </message>
    <message>
        <source>Custom architecture from the fields below</source>
        <translation>由下方字段定义的自定义架构</translation>
    </message>
    <message>
        <source>{0} image tokens per sample for the language model ({1} patches through the vision encoder)</source>
        <translation>每个样本给语言模型 {0} 个图像 token（视觉编码器处理 {1} 个图块）</translation>
    </message>
    <message>
        <source>Scale tier of the model (by total parameters)</source>
        <translation>模型的规模档位（按总参数量）</translation>
    </message>
    <message>
        <source>about {0} parameters (architecture not recognised)</source>
        <translation>约 {0} 个参数（未识别架构）</translation>
    </message>
    <message>
        <source>{0} parameters exactly</source>
        <translation>精确参数量 {0}</translation>
    </message>
    <message>
        <source>vision encoder {0} + projector {1}</source>
        <translation>视觉编码器 {0} + 投影层 {1}</translation>
    </message>
    <message>
        <source>safetensors headers: {0} stored ({1})</source>
        <translation>safetensors 文件头：存储了 {0}（{1}）</translation>
    </message>
    <message>
        <source>published: {0}</source>
        <translation>官方公布：{0}</translation>
    </message>
</context>
<context>
    <name>MultiNode</name>
    <message>
        <source>--nodes must be between 1 and 4096</source>
        <translation>--nodes 必须在 1 到 4096 之间</translation>
    </message>
    <message>
        <source>a kit result must be a JSON object</source>
        <translation>测试结果必须是一个 JSON 对象</translation>
    </message>
    <message>
        <source>schema: expected &apos;{want}&apos;, got {got}</source>
        <translation>schema：应为“{want}”，实际为 {got}</translation>
    </message>
    <message>
        <source>{file}: {error}</source>
        <translation>{file}：{error}</translation>
    </message>
    <message>
        <source>Measured on CPUs with gloo: this checks the kit, not the network; the figures mean nothing for the plan.</source>
        <translation>在 CPU 上用 gloo 测量：这只检验套件本身，不检验网络；这些数字对方案没有意义。</translation>
    </message>
    <message>
        <source>The kit reported an error: {err}</source>
        <translation>测试套件报告了错误：{err}</translation>
    </message>
    <message>
        <source>Measured on {n} nodes × {g}; the plan uses {p} GPUs.</source>
        <translation>在 {n} 个节点 × {g} 上测量；方案使用 {p} 张 GPU。</translation>
    </message>
    <message>
        <source>NCCL used TCP sockets (NET/Socket) between nodes on {hosts}: RDMA is not in use, typically ~10× slower. Check that the container sees /dev/infiniband and the RDMA driver, and NCCL_IB_HCA.</source>
        <translation>{hosts} 上节点间 NCCL 使用了 TCP 套接字（NET/Socket）：没有使用 RDMA，通常慢约 10 倍。请检查容器能否看到 /dev/infiniband 和 RDMA 驱动，以及 NCCL_IB_HCA。</translation>
    </message>
    <message>
        <source>NCCL uses RDMA (NET/IB) between nodes.</source>
        <translation>节点间 NCCL 使用 RDMA（NET/IB）。</translation>
    </message>
    <message>
        <source>one GPU per node</source>
        <translation>每节点一张 GPU</translation>
    </message>
    <message>
        <source>all GPUs</source>
        <translation>全部 GPU</translation>
    </message>
    <message>
        <source>Inter-node all-reduce ({what}): {bw:.1f} GB/s bus bandwidth, {pct:.0f}% of the {ref:.0f} GB/s the NICs should give ({line:.0f} GB/s line rate); the plan assumes {plan:.0f} GB/s.</source>
        <translation>节点间 all-reduce（{what}）：总线带宽 {bw:.1f} GB/s，只有网卡应达到的 {ref:.0f} GB/s 的 {pct:.0f}%（线速 {line:.0f} GB/s）；方案假设 {plan:.0f} GB/s。</translation>
    </message>
    <message>
        <source>Inter-node all-reduce ({what}): {bw:.1f} GB/s bus bandwidth, {pct:.0f}% of what the NICs should give; the plan assumes {plan:.0f} GB/s.</source>
        <translation>节点间 all-reduce（{what}）：总线带宽 {bw:.1f} GB/s，为网卡应达到值的 {pct:.0f}%；方案假设 {plan:.0f} GB/s。</translation>
    </message>
    <message>
        <source>Inter-node bandwidth varied by {pct:.0f}% over {k} runs ({lo:.1f}–{hi:.1f} GB/s): the fabric looks shared or oversubscribed, not dedicated.</source>
        <translation>节点间带宽在 {k} 次测量中波动 {pct:.0f}%（{lo:.1f}–{hi:.1f} GB/s）：网络看起来是共享或超额订阅的，而不是独享的。</translation>
    </message>
    <message>
        <source>Scaling over nodes: {pct:.0f}% of linear at {n} GPUs ({k} nodes).</source>
        <translation>跨节点扩展：{n} 张 GPU（{k} 个节点）时为线性的 {pct:.0f}%。</translation>
    </message>
    <message>
        <source>Scaling inside a node: {pct:.0f}% of linear at {n} GPUs.</source>
        <translation>节点内扩展：{n} 张 GPU 时为线性的 {pct:.0f}%。</translation>
    </message>
    <message>
        <source>Operator probe on {dev} ({dtype}): {k} operator(s) failed: {ops}. Port or replace them before renting in bulk.</source>
        <translation>{dev} 上的算子探测（{dtype}）：{k} 个算子失败：{ops}。批量租用前请先移植或替换。</translation>
    </message>
    <message>
        <source>Operator probe on {dev}: {k} operator(s) fell back to the CPU: {ops}.</source>
        <translation>{dev} 上的算子探测：{k} 个算子回退到 CPU 执行：{ops}。</translation>
    </message>
    <message>
        <source>Operator probe on {dev} ({dtype}): all {k} operators of the model ran forward and backward.</source>
        <translation>{dev} 上的算子探测（{dtype}）：模型的全部 {k} 个算子前向和反向均运行成功。</translation>
    </message>
    <message>
        <source>Operator probe stopped: {err}</source>
        <translation>算子探测中止：{err}</translation>
    </message>
    <message>
        <source>{who}: the recorded ibstat could not be read ({err}).</source>
        <translation>{who}：记录的 ibstat 无法解析（{err}）。</translation>
    </message>
    <message>
        <source>{who}: the recorded card status could not be read ({err}).</source>
        <translation>{who}：记录的加速卡状态无法解析（{err}）。</translation>
    </message>
    <message>
        <source>{who}: {finding}</source>
        <translation>{who}：{finding}</translation>
    </message>
    <message>
        <source>{who}: network ports and cards as planned.</source>
        <translation>{who}：网络端口和加速卡与方案一致。</translation>
    </message>
</context>
<context>
    <name>Network</name>
    <message>
        <source>line {n}: {msg}</source>
        <translation>第 {n} 行：{msg}</translation>
    </message>
    <message>
        <source>this is too long for ibstat/ibv_devinfo output (over {n} MB)</source>
        <translation>内容过长，不像 ibstat/ibv_devinfo 输出（超过 {n} MB）</translation>
    </message>
    <message>
        <source>port {dev} {port} has no state line</source>
        <translation>端口 {dev} {port} 缺少状态行</translation>
    </message>
    <message>
        <source>port {dev} {port} appears twice</source>
        <translation>端口 {dev} {port} 出现了两次</translation>
    </message>
    <message>
        <source>more than {n} ports: not one node&apos;s output</source>
        <translation>超过 {n} 个端口：不是单个节点的输出</translation>
    </message>
    <message>
        <source>expected ibstat or ibv_devinfo output (a line like &quot;CA &apos;mlx5_0&apos;&quot; or &quot;hca_id: mlx5_0&quot;), got &apos;{text}&apos;</source>
        <translation>应为 ibstat 或 ibv_devinfo 输出（类似“CA &apos;mlx5_0&apos;”或“hca_id: mlx5_0”的行），实际为“{text}”</translation>
    </message>
    <message>
        <source>unknown port state &apos;{val}&apos;</source>
        <translation>未知端口状态“{val}”</translation>
    </message>
    <message>
        <source>unknown link layer &apos;{val}&apos; (expected InfiniBand or Ethernet)</source>
        <translation>未知链路层“{val}”（应为 InfiniBand 或 Ethernet）</translation>
    </message>
    <message>
        <source>rate: expected a number of Gb/s, got &apos;{val}&apos;</source>
        <translation>rate：应为 Gb/s 数值，实际为“{val}”</translation>
    </message>
    <message>
        <source>active_width: expected like &apos;4X (2)&apos;, got &apos;{val}&apos;</source>
        <translation>active_width：应类似“4X (2)”，实际为“{val}”</translation>
    </message>
    <message>
        <source>active_speed: expected like &apos;50.0 Gbps (64)&apos;, got &apos;{val}&apos;</source>
        <translation>active_speed：应类似“50.0 Gbps (64)”，实际为“{val}”</translation>
    </message>
    <message>
        <source>cannot read &apos;{text}&apos; in the output of {dev}</source>
        <translation>无法解析 {dev} 输出中的“{text}”</translation>
    </message>
    <message>
        <source>no HCA port found: paste the output of &apos;ibstat&apos; or &apos;ibv_devinfo -v&apos; (the lines from &quot;CA &apos;...&apos;&quot; or &quot;hca_id:&quot; on)</source>
        <translation>未找到 HCA 端口：请粘贴“ibstat”或“ibv_devinfo -v”的输出（从“CA &apos;...&apos;”或“hca_id:”开始的行）</translation>
    </message>
    <message>
        <source>&apos;{id}&apos; is not an inter-node network</source>
        <translation>“{id}”不是节点间网络</translation>
    </message>
    <message>
        <source>{n} of {total} ports active: {summary}.</source>
        <translation>{total} 个端口中 {n} 个处于活动状态：{summary}。</translation>
    </message>
    <message>
        <source>The output shows no rate for some ports (plain ibv_devinfo): paste &apos;ibstat&apos; or &apos;ibv_devinfo -v&apos; to check the speed.</source>
        <translation>输出中部分端口没有速率（普通 ibv_devinfo）：请粘贴“ibstat”或“ibv_devinfo -v”以检查速率。</translation>
    </message>
    <message>
        <source>No link layer printed for {ports}: an old ibv_devinfo; &apos;ibstat&apos; tells InfiniBand from RoCE.</source>
        <translation>{ports} 没有打印链路层：旧版 ibv_devinfo；“ibstat”可以区分 InfiniBand 和 RoCE。</translation>
    </message>
    <message>
        <source>The plan fits in one node: the network between nodes is not used for training.</source>
        <translation>方案在一个节点内即可完成：训练不使用节点间网络。</translation>
    </message>
    <message>
        <source>{k} active {kind} ports at {rate} or more: the {n} NICs per node of the plan ({name}) are there.</source>
        <translation>{k} 个活动的 {kind} 端口速率达到 {rate} 或更高：方案要求的每节点 {n} 块网卡（{name}）都在。</translation>
    </message>
    <message>
        <source>The plan assumes {kind} ({name}), but {k} active ports are {other} ({rates} Gb/s): {ports}. The fabric is not the one promised; ask the vendor, and re-plan with hardware.inter_node set to what is there.</source>
        <translation>方案假设 {kind}（{name}），但 {k} 个活动端口是 {other}（{rates} Gb/s）：{ports}。网络不是承诺的那种；请询问供应商，并把 hardware.inter_node 设为实际网络后重新规划。</translation>
    </message>
    <message>
        <source>{k} {kind} ports run at {rates} Gb/s, below the {want} the plan assumes ({name}): {ports}.</source>
        <translation>{k} 个 {kind} 端口速率为 {rates} Gb/s，低于方案假设的 {want}（{name}）：{ports}。</translation>
    </message>
    <message>
        <source>Only {k} active {kind} ports at {rate} or more; the plan assumes {n} per node: inter-node bandwidth is {pct:.0f}% of the plan&apos;s.</source>
        <translation>只有 {k} 个活动的 {kind} 端口速率达到 {rate} 或更高；方案假设每节点 {n} 个：节点间带宽只有方案的 {pct:.0f}%。</translation>
    </message>
    <message>
        <source>No port is active: this node cannot reach the others over RDMA; NCCL would fall back to TCP sockets.</source>
        <translation>没有活动端口：此节点无法通过 RDMA 连接其他节点；NCCL 将退回 TCP 套接字。</translation>
    </message>
    <message>
        <source>{k} port(s) not active ({states}): {ports}. A cable, a switch port or the subnet manager; ask the vendor unless the port is unused on purpose.</source>
        <translation>{k} 个端口未激活（{states}）：{ports}。可能是线缆、交换机端口或子网管理器的问题；除非该端口有意不用，否则请询问供应商。</translation>
    </message>
    <message>
        <source>{devs}: no GPU at PIX/PXB distance (nvidia-smi topo -m); GPUDirect RDMA through the CPU is slower.</source>
        <translation>{devs}：没有处于 PIX/PXB 距离的 GPU（nvidia-smi topo -m）；经过 CPU 的 GPUDirect RDMA 较慢。</translation>
    </message>
    <message>
        <source>Every active NIC found in topo -m has a GPU at PIX/PXB distance ({k} NICs).</source>
        <translation>topo -m 中找到的每块活动网卡都有处于 PIX/PXB 距离的 GPU（{k} 块网卡）。</translation>
    </message>
</context>
<context>
    <name>Plan</name>
    <message>
        <source>tensor-parallel communication</source>
        <translation>张量并行通信</translation>
    </message>
    <message>
        <source>data-parallel / ZeRO communication</source>
        <translation>数据并行 / ZeRO 通信</translation>
    </message>
    <message>
        <source>the pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>context-parallel communication</source>
        <translation>上下文并行通信</translation>
    </message>
    <message>
        <source>expert all-to-all</source>
        <translation>专家全对全通信</translation>
    </message>
    <message>
        <source>the optimizer step and other memory-bound work</source>
        <translation>优化器步骤及其他访存受限的工作</translation>
    </message>
    <message>
        <source>objective must be cheapest, fastest or value</source>
        <translation>优化目标必须是 cheapest、fastest 或 value</translation>
    </message>
    <message>
        <source>search cancelled</source>
        <translation>搜索已取消</translation>
    </message>
    <message>
        <source>memory size unknown</source>
        <translation>显存大小未知</translation>
    </message>
    <message>
        <source>no recompute</source>
        <translation>不重计算</translation>
    </message>
    <message>
        <source>selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <source>selective, attention core</source>
        <translation>选择性（注意力核心）</translation>
    </message>
    <message>
        <source>per-op selective</source>
        <translation>逐算子选择性</translation>
    </message>
    <message>
        <source>every N-th layer</source>
        <translation>每隔 N 层</translation>
    </message>
    <message>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <source>no {precision} peak in the catalog</source>
        <translation>目录中没有 {precision} 峰值算力</translation>
    </message>
    <message>
        <source>no price in {region} — enter a quote</source>
        <translation>{region}没有价格——请输入报价</translation>
    </message>
    <message>
        <source>no price — enter a quote</source>
        <translation>没有价格——请输入报价</translation>
    </message>
    <message>
        <source>mainland China</source>
        <translation>中国大陆</translation>
    </message>
    <message>
        <source>worldwide</source>
        <translation>全球</translation>
    </message>
    <message>
        <source>No plan passes the planning rules on card class, consumer cards across nodes and even pipeline stages: the plans shown break them (see each plan&apos;s rules).</source>
        <translation>没有方案能同时满足显卡档位、消费级显卡跨节点和流水线均匀分段这几条规划规则：下面列出的方案违反了这些规则（见各方案的规则）。</translation>
    </message>
    <message>
        <source>it misses the deadline of {d} and is over the budget of {b:,.0f} {cur}</source>
        <translation>它赶不上 {d}的截止时间，且超出 {b:,.0f} {cur} 的预算</translation>
    </message>
    <message>
        <source>it misses the deadline of {d}</source>
        <translation>它赶不上 {d}的截止时间</translation>
    </message>
    <message>
        <source>No plan meets the deadline of {days} within {n} GPUs: the fastest plans are shown; raise max_gpus or the deadline.</source>
        <translation>在 {n} 张 GPU 以内没有方案能赶上 {days}的截止时间：下面显示最快的方案；请提高 max_gpus 或放宽截止时间。</translation>
    </message>
    <message>
        <source>No plan meets both the deadline of {days} and the budget of {budget:,.0f} {cur}: within the budget the fastest plan takes {fast}.</source>
        <translation>没有方案能同时满足 {days}的截止时间和 {budget:,.0f} {cur} 的预算：预算内最快的方案需要 {fast}。</translation>
    </message>
    <message>
        <source>No plan meets both the deadline of {days} and the budget of {budget:,.0f} {cur}: meeting the deadline costs at least {cost:,.0f} {cur}, and no plan is within the budget.</source>
        <translation>没有方案能同时满足 {days}的截止时间和 {budget:,.0f} {cur} 的预算：满足截止时间至少需要 {cost:,.0f} {cur}，且没有方案在预算内。</translation>
    </message>
    <message>
        <source>No plan meets both the deadline of {days} and the budget of {budget:,.0f} {cur}: meeting the deadline costs at least {cost:,.0f} {cur}; within the budget the fastest plan takes {fast}.</source>
        <translation>没有方案能同时满足 {days}的截止时间和 {budget:,.0f} {cur} 的预算：满足截止时间至少需要 {cost:,.0f} {cur}；预算内最快的方案需要 {fast}。</translation>
    </message>
    <message>
        <source>no layout fits in memory with up to {n} GPUs</source>
        <translation>最多 {n} 张 GPU 时没有放得下显存的布局</translation>
    </message>
    <message>
        <source>No candidate fits in memory: allow more GPUs (max_gpus) or larger cards.</source>
        <translation>没有候选配置放得进显存：请允许更多 GPU（max_gpus）或更大显存的卡。</translation>
    </message>
    <message>
        <source>No plan fits the budget of {budget:,.0f} {cur}: the cheapest plans are shown.</source>
        <translation>没有方案在 {budget:,.0f} {cur} 的预算内：下面显示最便宜的方案。</translation>
    </message>
    <message>
        <source>sold only in {market}: no {region} quote — rent it there (constraints.region) or enter a quote</source>
        <translation>仅在{market}销售：没有{region}报价——请改到那里租用（计划文件中的租用地区），或输入报价</translation>
    </message>
    <message>
        <source>{other}: no layout fits {gpu} within {n} GPUs.</source>
        <translation>{other}：在 {n} 张 {gpu} 以内没有放得下的布局。</translation>
    </message>
    <message>
        <source>Not tried: {names} (does not run {method}).</source>
        <translation>未尝试：{names}（不支持 {method}）。</translation>
    </message>
    <message>
        <source>{fw}: {setup}.</source>
        <translation>{fw}：{setup}。</translation>
    </message>
    <message>
        <source>ZeRO-{z} over {link}</source>
        <translation>经 {link} 的 ZeRO-{z}</translation>
    </message>
    <message>
        <source>no ZeRO</source>
        <translation>无 ZeRO</translation>
    </message>
    <message>
        <source>With {what}, the best plan is {n} × {gpu} ({fw}), {span}, {cost:,.0f} {cur}, billed as {mode}, and it passes every ranking rule. Your choice is kept; change it to plan with this.</source>
        <translation>若采用{what}，最佳方案为 {n} × {gpu}（{fw}），{span}，{cost:,.0f} {cur}，计费方式为{mode}，且通过全部排序规则。你的选择保持不变；如要按此规划方案，请自行修改。</translation>
    </message>
    <message>
        <source>With {what}, the best plan is {n} × {gpu} ({fw}), {span}, {cost:,.0f} {cur}, billed as {mode}, but it fails the planning rule “{rule}”. Your choice is kept; change it to plan with this.</source>
        <translation>若采用{what}，最佳方案为 {n} × {gpu}（{fw}），{span}，{cost:,.0f} {cur}，计费方式为{mode}，但未通过规划规则“{rule}”。你的选择保持不变；如要按此规划方案，请自行修改。</translation>
    </message>
    <message>
        <source>Ranks #{n}: its MFU of {mfu:.0%} is poor and fails the planning rule “MFU grade” (from the interconnect, or untested kernels), so it ranks after the best plan graded above poor ({cost:,.0f} {cur}, {span}); then by the objective.</source>
        <translation>排第 {n}：其 MFU {mfu:.0%} 为“差”，未通过规划规则“MFU 评级”（源于互联，或算子未经验证），所以排在评级高于“差”的最佳方案（{cost:,.0f} {cur}，{span}）之后；其余按目标排序。</translation>
    </message>
    <message>
        <source>Ranks #{n}: no plan that meets the constraints has a price from networked servers, so the best by the objective comes first, though its price buys no network between its nodes (planning rule “networked multi-node price”).</source>
        <translation>排第 {n}：满足约束的方案中没有一个是按组网服务器的报价计价的，所以按目标最好的排在最前，但它的价格不含节点之间的网络（规划规则“多机价格来自组网报价”）。</translation>
    </message>
    <message>
        <source>Ranks #{n}: cheaper than a plan above it, but both cost within {tie:.0%} of the cheapest plan it is ranked with ({cost:,.0f} {cur}, {span}), a difference the estimate cannot tell apart, so the faster ranks first.</source>
        <translation>排第 {n}：比排在它前面的某个方案便宜，但两者的费用都在与它一同排序的方案中最便宜者（{cost:,.0f} {cur}，{span}）的 {tie:.0%} 以内，估算分辨不出这样的差别，因此较快的排在前面。</translation>
    </message>
    <message>
        <source>A better plan by the objective ranks after this one: {n} × {gpu} over {nodes} nodes, {cost:,.0f} {cur} for {span}, but its price is not from a quote for networked servers and buys no network between them (planning rule “{rule}”). Ask a vendor to quote {nodes} networked servers of that card (InfiniBand or RoCE) before you rent this plan: if that plan still costs about {cost:,.0f} {cur} with the network, rent it instead.</source>
        <translation>按目标更优的一个方案排在此方案之后：{n} × {gpu}，跨 {nodes} 个节点，{cost:,.0f} {cur}，{span}，但它的价格并非来自组网服务器的报价，买不到节点之间的网络（规划规则“{rule}”）。租用此方案之前，请向供应商询问 {nodes} 台该卡组网服务器（InfiniBand 或 RoCE）的报价：若含网络后那个方案仍约为 {cost:,.0f} {cur}，请改租那个方案。</translation>
    </message>
    <message>
        <source>{what} fits: its best plan is {n} × {gpu} ({fw}), {span}, {cost:,.0f} {cur}. Your choice is kept; change it to plan with this.</source>
        <translation>{what}放得下：其最佳方案为 {n} × {gpu}（{fw}），{span}，{cost:,.0f} {cur}。你的选择保持不变；如要按此规划方案，请自行修改。</translation>
    </message>
    <message>
        <source>{what} fits: its best plan is {n} × {gpu} ({fw}), {span}, {cost:,.0f} {cur}, but {misses}. Your choice is kept; change it to plan with this.</source>
        <translation>{what}放得下：其最佳方案为 {n} × {gpu}（{fw}），{span}，{cost:,.0f} {cur}，但{misses}。你的选择保持不变；如要按此规划方案，请自行修改。</translation>
    </message>
    <message>
        <source>it is over the budget of {b:,.0f} {cur}</source>
        <translation>它超出 {b:,.0f} {cur} 的预算</translation>
    </message>
    <message>
        <source>No GPU type has a {mode} price, the rental mode set in the scenario (constraints.rental_mode): enter your vendor&apos;s quote for it, or set the rental mode to automatic so that the search compares the prices it has.</source>
        <translation>没有任何 GPU 型号有{mode}价格（“时间与预算”页设定的租用方式）：请输入供应商的此类报价，或把租用方式设为自动，让搜索比较已有的价格。</translation>
    </message>
    <message>
        <source>No plan is within the budget of {budget:,.0f} {cur}, so tensor parallelism over PCIe is not ranked down: it is timed over PCIe, with no overlap.</source>
        <translation>没有任何方案在 {budget:,.0f} {cur} 的预算之内，因此经 PCIe 的张量并行不降低排名：按 PCIe 计时，且不做通信重叠。</translation>
    </message>
    <message>
        <source>{me} beats {other}: {other} needs {other_span}, over the deadline of {deadline_span}.</source>
        <translation>{me} 胜过 {other}：{other} 需要 {other_span}，超过 {deadline_span}的截止时间。</translation>
    </message>
    <message>
        <source>On one GPU nothing is sharded, but DeepSpeed offloads the optimizer only with ZeRO on: launch the Hugging Face Trainer with a DeepSpeed config at zero_optimization stage 2 with offload_optimizer device cpu (DeepSpeed&apos;s ZeRO-Offload; its offload keys are valid at stages 1–3, not 0).</source>
        <translation>单卡不做任何切分，但 DeepSpeed 只有在开启 ZeRO 时才卸载优化器：请用 zero_optimization 为第 2 阶段、offload_optimizer 设为 CPU 的 DeepSpeed 配置启动 Hugging Face Trainer（即 DeepSpeed 的 ZeRO 卸载；其卸载选项只在第 1–3 阶段有效，第 0 阶段无效）。</translation>
    </message>
    <message>
        <source>{n} × {gpu}: {price:,.2f} {cur} per card-hour for {eff:,.0f} effective TFLOPS per card ({peak:,.0f} peak × {mfu:.0%} utilisation; micro-batch {mbs}, {zero}) → {cpt:,.3f} {cur} per million tokens.</source>
        <translation>{n} × {gpu}：每卡时 {price:,.2f} {cur}，每卡有效算力 {eff:,.0f} TFLOPS（峰值 {peak:,.0f} × 利用率 {mfu:.0%}；微批次 {mbs}，{zero}）→ 每百万 token {cpt:,.3f} {cur}。</translation>
    </message>
    <message>
        <source>Both run on {gpu}: {la} with {fa} reaches {ma:.0%} MFU, {lb} with {fb} {mb:.0%}, so the tokens of the first cost {cr:.2f}× as much.</source>
        <translation>两者都用 {gpu}：{la}（{fa}）的 MFU 为 {ma:.0%}，{lb}（{fb}）为 {mb:.0%}，因此前者每个 token 的成本是后者的 {cr:.2f} 倍。</translation>
    </message>
    <message>
        <source>{a} costs {pr:.2f}× as much per card-hour as {b} and delivers {er:.2f}× the effective TFLOPS, so its tokens cost {cr:.2f}× as much (setup, checkpoints and billing make the rest: {rest:.2f}×).</source>
        <translation>{a} 的每卡时价格是 {b} 的 {pr:.2f} 倍，有效 TFLOPS 是其 {er:.2f} 倍，因此每 token 成本是其 {cr:.2f} 倍（其余来自环境搭建、检查点和计费方式：{rest:.2f} 倍）。</translation>
    </message>
    <message>
        <source>{n} × {gpu} ({nodes} node(s)): {mem} per GPU, {span} in calendar time, {cost:,.0f} {cur}.</source>
        <translation>{n} × {gpu}（{nodes} 个节点）：单卡 {mem}，日历时间 {span}，{cost:,.0f} {cur}。</translation>
    </message>
    <message>
        <source>Tensor parallel {tp}: each layer&apos;s weights split over {tp} GPUs inside one node ({link}).</source>
        <translation>张量并行 {tp}：每层权重切分到同一节点内的 {tp} 张 GPU 上（{link}）。</translation>
    </message>
    <message>
        <source>Pipeline parallel {pp}: {layers} layers in stages of about {per} layers; {m} micro-batches per step keep the pipeline bubble at {bubble:.0%} ((p−1)/m).</source>
        <translation>流水线并行 {pp}：{layers} 层分成每段约 {per} 层的阶段；每步 {m} 个微批次，使流水线气泡保持在 {bubble:.0%}（(p−1)/m）。</translation>
    </message>
    <message>
        <source>optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>optimizer states and gradients</source>
        <translation>优化器状态和梯度</translation>
    </message>
    <message>
        <source>optimizer states, gradients and weights</source>
        <translation>优化器状态、梯度和权重</translation>
    </message>
    <message>
        <source>ZeRO-{z}: {what} sharded over the {dp} data-parallel GPUs.</source>
        <translation>ZeRO-{z}：{what}切分到 {dp} 张数据并行的 GPU 上。</translation>
    </message>
    <message>
        <source>Plain data parallel over {dp} GPUs: the model states fit without sharding.</source>
        <translation>在 {dp} 张 GPU 上做普通数据并行：模型状态无需切分即可放下。</translation>
    </message>
    <message>
        <source>Activation recomputation ({rc}) trades extra compute for memory.</source>
        <translation>激活重计算（{rc}）用额外的算力换取显存。</translation>
    </message>
    <message>
        <source>Limited by memory: {use:.0%} of each GPU is used.</source>
        <translation>受显存限制：每张 GPU 已用 {use:.0%}。</translation>
    </message>
    <message>
        <source>Largest loss: {what} takes {frac:.0%} of each step.</source>
        <translation>最大损耗：{what}占每步的 {frac:.0%}。</translation>
    </message>
    <message>
        <source>vLLM asleep while the model trains and the optimizer states in CPU memory (training.rl.engine_sleep and parallel.offload_optimizer: ms-swift&apos;s own colocated GRPO examples set both)</source>
        <translation>训练时 vLLM 休眠、优化器状态放在 CPU 内存中（training.rl.engine_sleep 和 parallel.offload_optimizer：ms-swift 自带的同卡共置 GRPO 示例两者都开启）</translation>
    </message>
    <message>
        <source>vLLM asleep while the model trains (training.rl.engine_sleep)</source>
        <translation>训练时 vLLM 休眠（training.rl.engine_sleep）</translation>
    </message>
    <message>
        <source>the optimizer states in CPU memory (parallel.offload_optimizer)</source>
        <translation>优化器状态放在 CPU 内存中（parallel.offload_optimizer）</translation>
    </message>
    <message>
        <source>vLLM asleep while the model trains and the training model in CPU memory while vLLM generates (training.rl.engine_sleep and training.rl.offload_model: Megatron-SWIFT --sleep_level 2 --offload_model true --offload_optimizer true)</source>
        <translation>训练时 vLLM 休眠、vLLM 生成时训练模型放在 CPU 内存中（training.rl.engine_sleep 和 training.rl.offload_model：Megatron-SWIFT 的 --sleep_level 2 --offload_model true --offload_optimizer true）</translation>
    </message>
    <message>
        <source>the training model in CPU memory while vLLM generates (training.rl.offload_model: Megatron-SWIFT --offload_model true --offload_optimizer true)</source>
        <translation>vLLM 生成时训练模型放在 CPU 内存中（training.rl.offload_model：Megatron-SWIFT 的 --offload_model true --offload_optimizer true）</translation>
    </message>
    <message>
        <source>vLLM asleep while the model trains, the training model in CPU memory while vLLM generates and the optimizer states in CPU memory (training.rl.engine_sleep, training.rl.offload_model and parallel.offload_optimizer: ms-swift&apos;s moe_colocate_full.sh example sets all three)</source>
        <translation>训练时 vLLM 休眠、vLLM 生成时训练模型放在 CPU 内存中、优化器状态放在 CPU 内存中（training.rl.engine_sleep、training.rl.offload_model 和 parallel.offload_optimizer：ms-swift 的 moe_colocate_full.sh 示例三者都开启）</translation>
    </message>
    <message>
        <source>the training model in CPU memory while vLLM generates and the optimizer states in CPU memory (training.rl.offload_model and parallel.offload_optimizer)</source>
        <translation>vLLM 生成时训练模型放在 CPU 内存中、优化器状态放在 CPU 内存中（training.rl.offload_model 和 parallel.offload_optimizer）</translation>
    </message>
    <message>
        <source>{mode} at the default price for {gpu} ({date}), which your quotes do not give</source>
        <translation>{mode}，用的是 {gpu} 的默认价格（{date}），你的报价里没有这一项</translation>
    </message>
    <message>
        <source>Applies memory savers you did not ask for: {what}. This layout does not fit in memory with the tools&apos; defaults; a plan without savers ranks first when it is within {tie:.0%} of this one by the objective, or when the savers cost more than {tie:.0%} in time for less than {tie:.0%} in money. Set the fields to keep this plan, or set them off to plan without them.</source>
        <translation>采用了你未要求的显存节省手段：{what}。按工具的默认设置，这一布局放不进显存；不用这些手段的方案若按目标与本方案相差在 {tie:.0%} 以内，或这些手段多花的时间超过 {tie:.0%} 而省下的钱不到 {tie:.0%}，则排在前面。要保留此方案，请在场景中写明这些字段；若不想用，请将其设为关闭后重新规划。</translation>
    </message>
    <message>
        <source>attention core</source>
        <translation>注意力核心</translation>
    </message>
    <message>
        <source>norms</source>
        <translation>归一化层</translation>
    </message>
    <message>
        <source>expert activation</source>
        <translation>专家激活函数</translation>
    </message>
    <message>
        <source>MLA up projections</source>
        <translation>MLA 上投影</translation>
    </message>
    <message>
        <source>dense MLP</source>
        <translation>稠密 MLP</translation>
    </message>
    <message>
        <source>MoE layer</source>
        <translation>MoE 层</translation>
    </message>
    <message>
        <source>shared experts</source>
        <translation>共享专家</translation>
    </message>
    <message>
        <source>selective, {modules}</source>
        <translation>选择性（{modules}）</translation>
    </message>
    <message>
        <source>Ranks #{n}: {gap:.{gap_d}%} slower than the fastest plan; plans within {tie:.0%} of it are equally fast to the estimate, so it ranks by cost among them.</source>
        <translation>排第 {n}：比最快的方案慢 {gap:.{gap_d}%}；与它相差 {tie:.0%} 以内的方案按估算同样快，因此在这些方案中按费用排序。</translation>
    </message>
    <message>
        <source>Ranks #{n}: cheaper than a plan above it, but both cost within {tie:.0%} of the cheapest plan it is ranked with (#{k}: {cost:,.0f} {cur}, {span}), a difference the estimate cannot tell apart, so the faster ranks first.</source>
        <translation>排第 {n}：比排在它前面的某个方案便宜，但两者的费用都在与它一同排序的方案中最便宜者（第 {k} 名：{cost:,.0f} {cur}，{span}）的 {tie:.0%} 以内，估算分辨不出这样的差别，因此较快的排在前面。</translation>
    </message>
    <message>
        <source>Ranks #{n}: {gap:.{gap_d}%} dearer than the cheapest plan it is ranked with ({cost:,.0f} {cur}, {span}); plans within {tie:.0%} of its cost cost the same to the estimate, so it ranks by time among them.</source>
        <translation>排第 {n}：比与它一同排序的方案中最便宜者（{cost:,.0f} {cur}，{span}）贵 {gap:.{gap_d}%}；费用与它相差 {tie:.0%} 以内的方案按估算同样便宜，因此在这些方案中按时间排序。</translation>
    </message>
    <message>
        <source>Ranks #{n}: {gap:.{gap_d}%} dearer than the cheapest plan it is ranked with (#{k}: {cost:,.0f} {cur}, {span}); plans within {tie:.0%} of its cost cost the same to the estimate, so it ranks by time among them.</source>
        <translation>排第 {n}：比与它一同排序的方案中最便宜者（第 {k} 名：{cost:,.0f} {cur}，{span}）贵 {gap:.{gap_d}%}；费用与它相差 {tie:.0%} 以内的方案按估算同样便宜，因此在这些方案中按时间排序。</translation>
    </message>
    <message>
        <source>Every plan that meets the constraints is graded poor (an MFU below its card class&apos;s poor line: 30% on mainstream GPUs): check the interconnect and the layout.</source>
        <translation>满足约束的方案都评为差（MFU 低于其卡类别的差线：主流 GPU 为 30%）：请检查互联和并行布局。</translation>
    </message>
    <message>
        <source>{me} beats {other}: {cost:,.0f} {cur} against {other_cost:,.0f} {cur} is within {tie:.0%}, a difference the estimate cannot tell apart, and it is faster ({me_span} against {them_span}).</source>
        <translation>{me} 胜过 {other}：{cost:,.0f} {cur} 对 {other_cost:,.0f} {cur}，相差在 {tie:.0%} 以内，估算分辨不出这样的差别，而它更快（{me_span}对 {them_span}）。</translation>
    </message>
    <message>
        <source>{me} beats {other}: {me_span} against {them_span} is within {tie:.0%}, a difference the estimate cannot tell apart, and it is cheaper ({cost:,.0f} {cur} against {other_cost:,.0f} {cur}).</source>
        <translation>{me} 胜过 {other}：{me_span}对 {them_span}，相差在 {tie:.0%} 以内，估算分辨不出这样的差别，而它更便宜（{cost:,.0f} {cur} 对 {other_cost:,.0f} {cur}）。</translation>
    </message>
    <message>
        <source>below the card class: full training of a {b} dense model wants cards with ≥80 GB (allow smaller ones with constraints.rules.card_class)</source>
        <translation>低于显卡档位：全量训练 {b} 稠密模型需要 ≥80 GB 的卡（在“方案”页取消勾选“≥80 GB 显卡”规划规则即可允许更小的卡）</translation>
    </message>
    <message>
        <source>{me} beats {other}: the {other} plan ({other_cost:,.0f} {cur}, {them_span}) spans several nodes and its price is from no quote of networked servers (InfiniBand or RoCE), so it ranks after plans priced from quotes of the right kind.</source>
        <translation>{me} 胜过 {other}：{other} 的方案（{other_cost:,.0f} {cur}，{them_span}）跨多个节点，而它的价格并非来自组网服务器（InfiniBand 或 RoCE）的报价，所以排在按同类报价计价的方案之后。</translation>
    </message>
    <message>
        <source>{me} beats {other}: {cost:,.0f} {cur} against {other_cost:,.0f} {cur} ({me_span} against {them_span}), even were {other} as fast as its modelled {other_mfu:.1%} MFU (it is costed at the best published {other_mfu_used:.1%} for {cls}).</source>
        <translation>{me} 胜过 {other}：{cost:,.0f} {cur} 对 {other_cost:,.0f} {cur}（{me_span}对 {them_span}）；即使 {other} 达到模型估算的 MFU {other_mfu:.1%} 也是如此（它按 {cls} 的最佳公开值 {other_mfu_used:.1%} 计算成本）。</translation>
    </message>
    <message>
        <source>{me} beats {other}: {me_span} against {them_span} ({cost:,.0f} {cur} against {other_cost:,.0f} {cur}), even were {other} as fast as its modelled {other_mfu:.1%} MFU (it is timed at the best published {other_mfu_used:.1%} for {cls}).</source>
        <translation>{me} 胜过 {other}：{me_span}对 {them_span}（{cost:,.0f} {cur} 对 {other_cost:,.0f} {cur}）；即使 {other} 达到模型估算的 MFU {other_mfu:.1%} 也是如此（它按 {cls} 的最佳公开值 {other_mfu_used:.1%} 计时）。</translation>
    </message>
    <message>
        <source>{me} beats {other}: {cost:,.0f} {cur} against {other_cost:,.0f} {cur} ({me_span} against {them_span}).</source>
        <translation>{me} 胜过 {other}：{cost:,.0f} {cur}，对比 {other_cost:,.0f} {cur}（{me_span}对比 {them_span}）。</translation>
    </message>
    <message>
        <source>{me} beats {other}: {me_span} against {them_span} ({cost:,.0f} {cur} against {other_cost:,.0f} {cur}).</source>
        <translation>{me} 胜过 {other}：{me_span}对比 {them_span}（{cost:,.0f} {cur} 对比 {other_cost:,.0f} {cur}）。</translation>
    </message>
    <message>
        <source>{other}: its best plan is {n} × {gpu} ({layout}, MFU {mfu:.0%}), {span}, {cost:,.0f} {cur} ({rel:+.0%} against this plan).</source>
        <translation>{other}：它的最佳方案为 {n} × {gpu}（{layout}，MFU {mfu:.0%}），{span}，{cost:,.0f} {cur}（相对本方案 {rel:+.0%}）。</translation>
    </message>
    <message>
        <source>Both run on {gpu}: {la} with {fa} reaches {ma:.0%} MFU, {lb} with {fb} {mb:.0%}; their tokens cost about the same.</source>
        <translation>两者都用 {gpu}：{la}（{fa}）的 MFU 为 {ma:.0%}，{lb}（{fb}）为 {mb:.0%}；两者每个 token 的成本大致相同。</translation>
    </message>
    <message>
        <source>Rollout generation: the training model through DeepSpeed&apos;s Hybrid Engine (fused inference kernels), {frac:.0%} of each step.</source>
        <translation>采样生成：训练模型经 DeepSpeed 混合引擎（融合推理内核）生成，占每步的 {frac:.0%}。</translation>
    </message>
    <message>
        <source>Largest loss: {what} ({own:.1%}) and {inner} ({share:.1%}), together {frac:.0%} of each step.</source>
        <translation>最大损耗：{what}（{own:.1%}）与{inner}（{share:.1%}），合计占每步的 {frac:.0%}。</translation>
    </message>
    <message>
        <source>Estimated utilisation {mfu:.0%} of the card&apos;s BF16 peak (FP8 plans are counted on the BF16 figure, as the published FP8 runs they are checked against; FP8 matrix multiplies run up to twice as fast) → {cpt:,.2f} {cur} per million tokens.</source>
        <translation>估计利用率为该卡 BF16 峰值的 {mfu:.0%}（FP8 方案按 BF16 算力计，与用来核对它的已发表 FP8 运行一致；FP8 矩阵乘最快可达两倍）→ 每百万 token {cpt:,.2f} {cur}。</translation>
    </message>
    <message>
        <source>Estimated utilisation {mfu:.0%} of peak, held at the ceiling it borrows ({note}) → {cpt:,.2f} {cur} per million tokens.</source>
        <translation>估计利用率为峰值的 {mfu:.0%}，封顶于借用的上限（{note}）→ 每百万 token {cpt:,.2f} {cur}。</translation>
    </message>
    <message>
        <source>Estimated utilisation {mfu:.0%} of peak, held at the best published run of its class ({note}) → {cpt:,.2f} {cur} per million tokens.</source>
        <translation>估计利用率为峰值的 {mfu:.0%}，封顶于同类最佳公开运行（{note}）→ 每百万 token {cpt:,.2f} {cur}。</translation>
    </message>
    <message>
        <source>Estimated utilisation {mfu:.0%} of peak → {cpt:,.2f} {cur} per million tokens.</source>
        <translation>估计利用率为峰值的 {mfu:.0%} → 每百万 token {cpt:,.2f} {cur}。</translation>
    </message>
    <message>
        <source>Tensor parallelism over PCIe ({tp} GPUs): every layer all-reduces over PCIe; expect poor scaling.</source>
        <translation>经 PCIe 的张量并行（{tp} 张 GPU）：每层都要经 PCIe 做 all-reduce；扩展性会很差。</translation>
    </message>
    <message>
        <source>Tensor parallel {tp} is larger than the NVLink domain of {dom} GPUs: part of its traffic goes over PCIe.</source>
        <translation>张量并行 {tp} 大于 {dom} 张 GPU 的 NVLink 域：部分通信要走 PCIe。</translation>
    </message>
    <message>
        <source>Tensor parallelism across nodes ({tp} &gt; {g} GPUs per node).</source>
        <translation>张量并行跨节点（{tp} &gt; 每节点 {g} 张 GPU）。</translation>
    </message>
    <message>
        <source>{gpu} comes at most {k} to a server: this plan uses servers of {k}, not the {g} GPUs per node entered.</source>
        <translation>{gpu} 每台服务器最多 {k} 块：本方案按每台 {k} 块计算，而不是你填写的每节点 {g} 块。</translation>
    </message>
    <message>
        <source>ZeRO-{z} moves gradients{w} every step over {link}; this traffic lowers utilisation.</source>
        <translation>ZeRO-{z} 每步都要经 {link} 传输梯度{w}；这些通信会降低利用率。</translation>
    </message>
    <message>
        <source> and weights</source>
        <translation>和权重</translation>
    </message>
    <message>
        <source>the network between nodes</source>
        <translation>节点间网络</translation>
    </message>
    <message>
        <source>The time assumes {mfu:.0%} model FLOPs utilisation; measure a short run and correct it.</source>
        <translation>该时间按 {mfu:.0%} 的模型 FLOPs 利用率估算；请实测一次短时运行并修正。</translation>
    </message>
    <message>
        <source>Only {per:.1f} tokens per parameter: pretraining from scratch uses about 20 to be compute-optimal (Chinchilla); continued pretraining of a trained model needs far fewer.</source>
        <translation>每个参数仅 {per:.1f} 个 token：从头预训练约需 20 个才达到算力最优（Chinchilla）；在已训练的模型上继续预训练所需少得多。</translation>
    </message>
    <message>
        <source>The batch is too small to keep {n} GPUs busy: one micro-batch per replica already makes {gbs} sequences per step, above the usual {target}.</source>
        <translation>批次太小，喂不饱 {n} 张 GPU：每个副本一个微批次就已是每步 {gbs} 条序列，超过常用的 {target}。</translation>
    </message>
    <message>
        <source>Only {m} micro-batches for {pp} pipeline stages: the bubble wastes {b:.0%} of the time; use a larger global batch.</source>
        <translation>{pp} 个流水线阶段只有 {m} 个微批次：流水线气泡浪费了 {b:.0%} 的时间；请使用更大的全局批次。</translation>
    </message>
    <message>
        <source>A model of this size normally runs on cards with ≥80 GB.</source>
        <translation>这种规模的模型通常在 ≥80 GB 的卡上运行。</translation>
    </message>
    <message>
        <source>{nodes} servers inside one NVLink domain of {dom} GPUs: they talk over the rack&apos;s NVLink switches, no network between servers is used.</source>
        <translation>{nodes} 台服务器位于同一个 {dom} 卡的 NVLink 域内：它们经机柜的 NVLink 交换机通信，不使用服务器之间的网络。</translation>
    </message>
    <message>
        <source>{nodes} nodes: ask the vendor for the network between nodes (≥400 Gb/s InfiniBand/RoCE for large models).</source>
        <translation>{nodes} 个节点：请向供应商确认节点间网络（大模型需 ≥400 Gb/s InfiniBand/RoCE）。</translation>
    </message>
    <message>
        <source>{n} cards: confirm the vendor&apos;s real elastic capacity before planning on it.</source>
        <translation>{n} 张卡：做方案之前请与供应商确认真实的弹性容量。</translation>
    </message>
    <message>
        <source>Over the budget of {b:,.0f} {cur}.</source>
        <translation>超出 {b:,.0f} {cur} 的预算。</translation>
    </message>
    <message>
        <source>Uses the default price for {gpu} ({date}): enter your quote.</source>
        <translation>使用了 {gpu} 的默认价格（{date}）：请输入你的报价。</translation>
    </message>
    <message>
        <source>Billed on {mode} at the default price for {gpu} ({date}), which your quote does not give: enter your own.</source>
        <translation>以{mode}计费，用的是 {gpu} 的默认价格（{date}），你的报价里没有这一项：请填入你的价格。</translation>
    </message>
    <message>
        <source>{me} beats {other}: {other} meets the deadline only at its point estimate, not at the upper end of its band (ranked after safe plans).</source>
        <translation>{me} 胜过 {other}：{other} 仅按点估计满足截止时间，按区间上限则不满足（排在稳妥的方案之后）。</translation>
    </message>
    <message>
        <source>{me} beats {other}: {other}&apos;s MFU of {other_mfu:.1%} is graded poor.</source>
        <translation>{me} 胜过 {other}：{other} 的 MFU 为 {other_mfu:.1%}，评级为差。</translation>
    </message>
    <message>
        <source>No plan on a card with NVLink meets the deadline and budget at the upper end of its band, so tensor parallelism over PCIe is not ranked down: it is timed over PCIe, with no overlap.</source>
        <translation>没有任何 NVLink 卡的方案在其区间上限处满足截止时间和预算，因此经 PCIe 的张量并行不降低排名：按 PCIe 计时，且不做通信重叠。</translation>
    </message>
    <message>
        <source>{me} beats {other}: {other} needs tensor parallelism over PCIe (no NVLink), ranked after plans without it while a card with NVLink meets the deadline.</source>
        <translation>{me} 胜过 {other}：{other} 需要经 PCIe（无 NVLink）做张量并行；只要有 NVLink 卡满足截止时间，它就排在不需要的方案之后。</translation>
    </message>
    <message>
        <source>{me} beats {other}: {other}&apos;s modelled {other_mfu:.1%} MFU is above the best published {other_mfu_used:.1%} for {cls} ({src}), so it is costed at {other_mfu_used:.1%}: {other_cost:,.0f} {cur} against {cost:,.0f} {cur}; at its modelled MFU it would have won.</source>
        <translation>{me} 胜过 {other}：{other} 的模型估算 MFU {other_mfu:.1%} 高于 {cls} 的最佳公开值 {other_mfu_used:.1%}（{src}），因此按 {other_mfu_used:.1%} 计算成本：{other_cost:,.0f} {cur} 对 {cost:,.0f} {cur}；若按模型估算的 MFU，它本会胜出。</translation>
    </message>
    <message>
        <source>Context parallel {cp}: each sequence of {seq:,} tokens is split over {cp} GPUs ({per:,} tokens each); attention exchanges keys and values between them.</source>
        <translation>上下文并行 {cp}：每条 {seq:,} token 的序列切分到 {cp} 张 GPU 上（每张 {per:,} token）；注意力计算在它们之间交换键和值。</translation>
    </message>
    <message>
        <source>Expert parallel {ep}: {per} of the {n} experts of each MoE layer on each GPU; tokens reach their experts by all-to-all.</source>
        <translation>专家并行 {ep}：每个 MoE 层的 {n} 个专家中，每张 GPU 放 {per} 个；token 通过全对全通信到达各自的专家。</translation>
    </message>
    <message>
        <source>ZeRO-{z}: {what} sharded over {n} GPUs ({dp} data-parallel × {cp} context-parallel ranks).</source>
        <translation>ZeRO-{z}：{what}切分到 {n} 张 GPU 上（{dp} 路数据并行 × {cp} 路上下文并行）。</translation>
    </message>
    <message>
        <source>Framework: {fw}, chosen by the search (frameworks tried on this plan&apos;s cards: {n}).</source>
        <translation>框架：{fw}，由搜索为本方案的显卡选出（尝试的框架数：{n}）。</translation>
    </message>
    <message>
        <source>Misses the deadline of {d}.</source>
        <translation>赶不上 {d}的截止时间。</translation>
    </message>
    <message>
        <source>{gpu} is a domestic accelerator: framework and operator support varies and porting the software is the hidden cost; run your own training script on a small instance before renting in bulk.</source>
        <translation>{gpu} 是国产加速卡：框架和算子支持程度不一，软件移植是隐藏的大头成本；批量租用前先在小实例上跑通你自己的训练脚本。</translation>
    </message>
    <message>
        <source>On {gpu}, {fw} runs through Huawei&apos;s MindSpeed adapter (no Transformer Engine or Apex): ask the vendor for an image with MindSpeed matching your Megatron version.</source>
        <translation>在 {gpu} 上，{fw} 通过华为的 MindSpeed 适配层运行（没有 Transformer Engine 和 Apex）：请向供应商要一个与你的 Megatron 版本匹配的 MindSpeed 镜像。</translation>
    </message>
    <message>
        <source>Megatron-FSDP: --use-megatron-fsdp --data-parallel-sharding-strategy optim_grads_params (Megatron-Core 0.14 or later; checkpoints in the fsdp_dtensor format).</source>
        <translation>Megatron-FSDP：--use-megatron-fsdp --data-parallel-sharding-strategy optim_grads_params（需 Megatron-Core 0.14 或更高版本；检查点使用 fsdp_dtensor 格式）。</translation>
    </message>
    <message>
        <source>ZeRO-{z} over the network</source>
        <translation>经节点间网络的 ZeRO-{z}</translation>
    </message>
    <message>
        <source>Pipeline parallel {pp}, interleaved with {v} virtual stages per GPU: {layers} layers, about {per} per chunk; {m} micro-batches per step keep the pipeline bubble at {bubble:.1%} ((p−1)/(v·m)).</source>
        <translation>流水线并行 {pp}，交错调度，每张 GPU {v} 个虚拟阶段：{layers} 层分成每块约 {per} 层；每步 {m} 个微批次，使流水线气泡保持在 {bubble:.1%}（(p−1)/(v·m)）。</translation>
    </message>
    <message>
        <source>Per step: {gbs:,} sequences of {seq:,} tokens = micro-batch {mbs} × gradient accumulation {ga} × data-parallel replicas {dp}.</source>
        <translation>每步 {gbs:,} 条长度为 {seq:,} token 的序列 = 微批次 {mbs} × 梯度累积 {ga} × 数据并行副本 {dp}。</translation>
    </message>
    <message>
        <source>{other}: does not fit {gpu}: it keeps the whole model on every GPU (data parallel only), so more GPUs do not help.</source>
        <translation>{other}：{gpu} 放不下：它在每张 GPU 上都保存完整模型（只有数据并行），增加 GPU 数量也没有用。</translation>
    </message>
    <message>
        <source>Rollout generation: vLLM colocated on the training GPUs, {frac:.0%} of each step (the training passes take the rest).</source>
        <translation>采样生成：vLLM 与训练共用同一批 GPU，占每步的 {frac:.0%}（其余是训练计算）。</translation>
    </message>
    <message>
        <source>Rollout generation: vLLM on GPUs of its own; waiting for it is {frac:.0%} of each step.</source>
        <translation>采样生成：vLLM 在独立的 GPU 上；等待它占每步的 {frac:.0%}。</translation>
    </message>
    <message>
        <source>Rollout generation: the training framework&apos;s own generate(), {frac:.0%} of each step.</source>
        <translation>采样生成：训练框架自带的 generate()，占每步的 {frac:.0%}。</translation>
    </message>
    <message>
        <source>QLoRA (4-bit frozen weights: training.method qlora)</source>
        <translation>QLoRA（4 位冻结权重：training.method qlora）</translation>
    </message>
    <message>
        <source>ZeRO-3 with the weights in CPU memory (parallel.offload_params)</source>
        <translation>ZeRO-3 并把权重放在 CPU 内存中（parallel.offload_params）</translation>
    </message>
    <message>
        <source>On one GPU with ZeRO-0 nothing is sharded: this is the Hugging Face Trainer launched with a DeepSpeed config (--deepspeed, zero_optimization stage 0). DeepSpeed&apos;s engine holds the model in {precision} and the Trainer runs no autocast under it (PEFT&apos;s fp32 copies of the norms and embeddings are cast back too): that, not sharding, is what differs from the plain Trainer.</source>
        <translation>单卡 ZeRO-0 不做任何切分：这就是用 DeepSpeed 配置（--deepspeed，zero_optimization stage 0）启动的 Hugging Face Trainer。DeepSpeed 引擎以 {precision} 保存模型，Trainer 在其下不运行 autocast（PEFT 为归一化层和嵌入层保留的 fp32 副本也会被转回）：与普通 Trainer 的差别在此，而不在切分。</translation>
    </message>
    <message>
        <source>Not tried: {why}.</source>
        <translation>未尝试：{why}。</translation>
    </message>
    <message>
        <source>Ranks #{n}: no plan meets the constraints, so the closest come first.</source>
        <translation>排第 {n}：没有方案满足约束，最接近的排在前面。</translation>
    </message>
    <message>
        <source>Ranks #{n}: the best plan by the objective among those that meet the constraints and pass the ranking rules.</source>
        <translation>排第 {n}：在满足约束并通过排序规则的方案中，按目标最优。</translation>
    </message>
    <message>
        <source>Ranks #{n}: next by the objective (the list shows one layout per GPU type and count).</source>
        <translation>排第 {n}：按目标依次排列（列表中每种 GPU 型号和数量只显示一种布局）。</translation>
    </message>
    <message>
        <source>Pipeline parallelism with {fw} is not tried for fine-tuning: the Hugging Face Trainer&apos;s DeepSpeed integration runs ZeRO only, and a pipeline needs the model rewritten by hand as a deepspeed.pipe.PipelineModule.</source>
        <translation>微调时不尝试 {fw} 的流水线并行：Hugging Face Trainer 的 DeepSpeed 集成只运行 ZeRO，流水线需要把模型手工改写为 deepspeed.pipe.PipelineModule。</translation>
    </message>
    <message>
        <source>no {mode} price, the rental mode set in the scenario (constraints.rental_mode) — enter a quote</source>
        <translation>没有{mode}价格（“时间与预算”页设定的租用方式）——请输入报价</translation>
    </message>
    <message>
        <source>Liger Kernel, whose fused linear cross-entropy builds no logits (training.liger_kernel)</source>
        <translation>Liger Kernel（其融合线性交叉熵不生成 logits；training.liger_kernel）</translation>
    </message>
    <message>
        <source>Unsloth (training.framework unsloth)</source>
        <translation>Unsloth（training.framework unsloth）</translation>
    </message>
    <message>
        <source>Ranks #{n}: after the plans that pass the planning rule “{rule}”, then by the objective.</source>
        <translation>排第 {n}：排在通过规划规则“{rule}”的方案之后，其余按目标排序。</translation>
    </message>
    <message>
        <source>Ranks #{n}: faster than a plan above it, but both are within {tie:.0%} of the fastest plan, a difference the estimate cannot tell apart, so the cheaper ranks first.</source>
        <translation>排第 {n}：比排在它前面的某个方案快，但两者都在最快方案的 {tie:.0%} 以内，估算分辨不出这样的差别，因此较便宜的排在前面。</translation>
    </message>
    <message>
        <source>Framework: {fw}, as set in the scenario; tick “Choose the framework” on the Plans page to let the search compare the others.</source>
        <translation>框架：{fw}，按场景中的设置；在“方案”页勾选“自动选择框架”，即可让搜索与其他框架比较。</translation>
    </message>
    <message>
        <source>no layout fits in memory within one node of {k} GPUs (consumer cards without P2P stay in one node: planning rule “{rule}”)</source>
        <translation>在一个 {k} 卡节点内没有放得进显存的配置（没有 P2P 的消费级卡限制在一个节点内：规划规则“{rule}”）</translation>
    </message>
    <message>
        <source>no layout fits in memory on one GPU (Max GPUs: 1)</source>
        <translation>单卡上没有放得下显存的布局（GPU 数上限：1）</translation>
    </message>
    <message>
        <source>{other}: no layout fits {gpu} within one node of {k} GPUs; consumer cards without P2P keep ZeRO-2/3, TP, PP, CP and EP inside one node (planning rule “{rule}”).</source>
        <translation>{other}：在一个 {k} 卡节点内没有放得下 {gpu} 的配置；没有 P2P 的消费级卡，ZeRO-2/3、TP、PP、CP 和 EP 都限制在一个节点内（规划规则“{rule}”）。</translation>
    </message>
    <message>
        <source>{other}: no layout fits one {gpu} (Max GPUs: 1).</source>
        <translation>{other}：单张 {gpu} 上没有放得下的布局（GPU 数上限：1）。</translation>
    </message>
    <message>
        <source>Multi-node training of this size wants ≥{need:g} Gb/s per server between nodes; {net} gives {have:g} Gb/s.</source>
        <translation>这种规模的多节点训练要求每台服务器的节点间带宽 ≥{need:g} Gb/s；{net} 只有 {have:g} Gb/s。</translation>
    </message>
    <message>
        <source>Ranks #{n}: no plan that meets the constraints passes every ranking rule, so the best by the objective among those that fail the least comes first; this one fails the planning rule “{rule}” (its check below).</source>
        <translation>排第 {n}：满足约束的方案中没有一个通过全部排序规则，因此在违反规则最轻的方案中按目标最优者排在前面；此方案未通过规划规则“{rule}”（见下方的检查）。</translation>
    </message>
    <message>
        <source>{me} beats {other}: {other} leaves {other_free:.1%} of the memory free, less than the memory model&apos;s p75 error of {margin:.1%} (tight).</source>
        <translation>{me} 胜过 {other}：{other} 只空出 {other_free:.1%} 的显存，少于显存模型 {margin:.1%} 的 p75 误差（偏紧）。</translation>
    </message>
</context>
<context>
    <name>PlanFile</name>
    <message>
        <source>invalid</source>
        <translation>无效</translation>
    </message>
    <message>
        <source>{file}: {problem} (field {field}: {why})</source>
        <translation>{file}：{problem}（字段 {field}：{why}）</translation>
    </message>
    <message>
        <source>{problem} (field {field}: {why})</source>
        <translation>{problem}（字段 {field}：{why}）</translation>
    </message>
    <message>
        <source>must be {n} after migration</source>
        <translation>迁移后必须为 {n}</translation>
    </message>
    <message>
        <source>not a GPU Planner plan</source>
        <translation>不是 GPU Planner 方案文件</translation>
    </message>
    <message>
        <source>must be a whole number</source>
        <translation>必须是整数</translation>
    </message>
    <message>
        <source>{v} is not a schema number</source>
        <translation>{v} 不是有效的 schema 版本号</translation>
    </message>
    <message>
        <source>made by a newer GPU Planner (schema {n}); this version reads up to {m}</source>
        <translation>由更新版本的 GPU Planner 创建（schema {n}）；本版本最高只能读取 {m}</translation>
    </message>
    <message>
        <source>no upgrade path from schema {n}</source>
        <translation>没有从 schema {n} 升级的路径</translation>
    </message>
    <message>
        <source>cannot upgrade a schema {n} plan</source>
        <translation>无法升级 schema {n} 的方案</translation>
    </message>
    <message>
        <source>too large for a plan file (over {mb} MB)</source>
        <translation>文件过大，不像方案文件（超过 {mb} MB）</translation>
    </message>
    <message>
        <source>empty file, not a plan</source>
        <translation>空文件，不是方案</translation>
    </message>
    <message>
        <source>UTF-16 text; plan files are UTF-8</source>
        <translation>UTF-16 文本；方案文件应为 UTF-8</translation>
    </message>
    <message>
        <source>binary data, not a plan file</source>
        <translation>二进制数据，不是方案文件</translation>
    </message>
    <message>
        <source>not UTF-8 text (invalid byte at offset {n})</source>
        <translation>不是 UTF-8 文本（偏移 {n} 处有无效字节）</translation>
    </message>
    <message>
        <source>not valid JSON: the file ends too early (truncated?)</source>
        <translation>不是有效的 JSON：文件提前结束（被截断了？）</translation>
    </message>
    <message>
        <source>not valid JSON (line {line}, column {col}: {msg})</source>
        <translation>不是有效的 JSON（第 {line} 行，第 {col} 列：{msg}）</translation>
    </message>
    <message>
        <source>not a plan: JSON nested too deeply</source>
        <translation>不是方案：JSON 嵌套过深</translation>
    </message>
    <message>
        <source>not valid JSON ({why})</source>
        <translation>不是有效的 JSON（{why}）</translation>
    </message>
    <message>
        <source>{name}: saved by an earlier GPU Planner, which wrote every field: the memory savers it writes off ({fields}) stay off as your choice, and the search does not try them; turn one on to plan with it</source>
        <translation>{name}：由较早版本的 GPU Planner 保存，当时写入了每个字段：其中关闭的显存节省手段（{fields}）按你的选择保持关闭，方案搜索不会尝试它们；打开其中一项即可按它规划</translation>
    </message>
    <message>
        <source>invalid plan</source>
        <translation>无效的方案</translation>
    </message>
    <message>
        <source>{name}: input settings that are not valid were left in results.app_ui and not used: {fields}</source>
        <translation>{name}：无效的输入设置已留在 results.app_ui 中，未被使用：{fields}</translation>
    </message>
    <message>
        <source>not a plan: expected a JSON object, found {kind}</source>
        <translation>不是方案：应为 JSON 对象，实际为 {kind}</translation>
    </message>
    <message>
        <source>{name}: a scenario file, opened as a new plan</source>
        <translation>{name}：场景文件，已作为新方案打开</translation>
    </message>
    <message>
        <source>not a GPU Planner plan (no schema_version)</source>
        <translation>不是 GPU Planner 方案（缺少 schema_version）</translation>
    </message>
    <message>
        <source>{name}: written in plan format {n}; saving will upgrade it to format {m}</source>
        <translation>{name}：方案格式为 {n}；保存时将升级为格式 {m}</translation>
    </message>
    <message>
        <source>{name}: unknown fields kept as they are (made by a newer GPU Planner?): {fields}</source>
        <translation>{name}：未知字段已原样保留（由更新版本的 GPU Planner 创建？）：{fields}</translation>
    </message>
    <message>
        <source>contains text that is not valid Unicode</source>
        <translation>包含无效的 Unicode 文本</translation>
    </message>
    <message>
        <source>{file}: {problem} ({why})</source>
        <translation>{file}：{problem}（{why}）</translation>
    </message>
    <message>
        <source>{problem} ({why})</source>
        <translation>{problem}（{why}）</translation>
    </message>
    <message>
        <source>{file}: {problem}</source>
        <translation>{file}：{problem}</translation>
    </message>
    <message>
        <source>the notes hold {got} characters in all; at most {n}</source>
        <translation>备注合计 {got} 个字符；最多 {n} 个</translation>
    </message>
    <message>
        <source>{head}… ({n} digits)</source>
        <translation>{head}…（共 {n} 位）</translation>
    </message>
    <message>
        <source>at most {n} entries, got {got}</source>
        <translation>最多 {n} 条，实际为 {got} 条</translation>
    </message>
    <message>
        <source>not UTF-8 text</source>
        <translation>不是 UTF-8 文本</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>file not found</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>is a folder, not a plan file</source>
        <translation>是文件夹，不是方案文件</translation>
    </message>
    <message>
        <source>cannot read the file (permission denied)</source>
        <translation>无法读取文件（权限不足）</translation>
    </message>
    <message>
        <source>cannot read the file ({why})</source>
        <translation>无法读取文件（{why}）</translation>
    </message>
    <message>
        <source>cannot save: the text contains invalid characters</source>
        <translation>无法保存：文本包含无效字符</translation>
    </message>
    <message>
        <source>cannot save: {why}</source>
        <translation>无法保存：{why}</translation>
    </message>
    <message>
        <source>cannot write ({why}); nothing was written</source>
        <translation>无法写入（{why}）；没有写入任何内容</translation>
    </message>
    <message>
        <source>it is the input file {name}; give the output another name</source>
        <translation>它是输入文件 {name}；请为输出另取一个文件名</translation>
    </message>
    <message>
        <source>cannot save ({why}); the file on disk is unchanged</source>
        <translation>无法保存（{why}）；磁盘上的文件未改动</translation>
    </message>
    <message>
        <source>not a regular file (a device, pipe or socket); give a file name</source>
        <translation>不是普通文件（设备、管道或套接字）；请给出文件名</translation>
    </message>
    <message>
        <source>a file name cannot hold a NUL byte</source>
        <translation>文件名不能包含 NUL 字节</translation>
    </message>
    <message>
        <source>permission denied; the folder may be read-only</source>
        <translation>权限不足；该文件夹可能是只读的</translation>
    </message>
    <message>
        <source>the disk is read-only</source>
        <translation>磁盘是只读的</translation>
    </message>
    <message>
        <source>the disk is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <source>this folder does not take new files</source>
        <translation>该文件夹不接受新文件</translation>
    </message>
    <message>
        <source>the folder does not exist</source>
        <translation>文件夹不存在</translation>
    </message>
    <message>
        <source>a file is in the way of the folder</source>
        <translation>有同名文件占用了该文件夹的路径</translation>
    </message>
    <message>
        <source>model not embedded: {why}</source>
        <translation>模型未嵌入：{why}</translation>
    </message>
    <message>
        <source>model not embedded: {path} not found</source>
        <translation>模型未嵌入：找不到 {path}</translation>
    </message>
    <message>
        <source>the embedded model cannot be used</source>
        <translation>嵌入的模型无法使用</translation>
    </message>
    <message>
        <source>expected an object</source>
        <translation>应为对象</translation>
    </message>
    <message>
        <source>expected a list</source>
        <translation>应为列表</translation>
    </message>
    <message>
        <source>expected text</source>
        <translation>应为文本</translation>
    </message>
    <message>
        <source>expected {kind}</source>
        <translation>应为 {kind}</translation>
    </message>
    <message>
        <source>not allowed in schema 1 (use goal)</source>
        <translation>schema 1 中不允许（请使用 goal）</translation>
    </message>
</context>
<context>
    <name>PlansPage</name>
    <message>
        <source>Plans</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>6 · Plans</source>
        <translation>6 · 方案</translation>
    </message>
    <message>
        <source>Rank by</source>
        <translation>排序依据</translation>
    </message>
    <message>
        <source>Cheapest total cost, fastest finish, or best value (cost × time)</source>
        <translation>总成本最低、完成最快，或性价比最高（成本 × 时间）</translation>
    </message>
    <message>
        <source>cheapest</source>
        <translation>最便宜</translation>
    </message>
    <message>
        <source>fastest</source>
        <translation>最快</translation>
    </message>
    <message>
        <source>best value</source>
        <translation>性价比最高</translation>
    </message>
    <message>
        <source>Use this layout</source>
        <translation>采用此布局</translation>
    </message>
    <message>
        <source>Copy this plan&apos;s GPUs and layout into your manual layout</source>
        <translation>把此方案的 GPU 和并行布局复制到你的手动布局</translation>
    </message>
    <message>
        <source>Search again</source>
        <translation>重新搜索</translation>
    </message>
    <message>
        <source>Run the plan search again with the current inputs</source>
        <translation>用当前输入重新运行方案搜索</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>卡数</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>GiB/GPU</source>
        <translation>GiB/卡</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>Not ranked — {0}</source>
        <translation>未参与排名——{0}</translation>
    </message>
    <message>
        <source>It is the last plan shown.</source>
        <translation>这是显示的最后一个方案。</translation>
    </message>
    <message>
        <source>Against #{0} ({1} × {2}): it ties on the ranking objective.</source>
        <translation>与 #{0}（{1} × {2}）相比：排序目标上持平。</translation>
    </message>
    <message>
        <source>HF Trainer</source>
        <translation>HF Trainer</translation>
    </message>
    <message>
        <source>DeepSpeed</source>
        <translation>DeepSpeed</translation>
    </message>
    <message>
        <source>FSDP2</source>
        <translation>FSDP2</translation>
    </message>
    <message>
        <source>Megatron</source>
        <translation>Megatron</translation>
    </message>
    <message>
        <source>Choose the framework</source>
        <translation>自动选择框架</translation>
    </message>
    <message>
        <source>Let the search compare Hugging Face Trainer, DeepSpeed, PyTorch FSDP2 and Megatron-Core; off: only the framework on the Training page</source>
        <translation>让搜索比较 Hugging Face Trainer、DeepSpeed、PyTorch FSDP2 和 Megatron-Core；关闭时只用训练设置页上的框架</translation>
    </message>
    <message>
        <source>Planning rules:</source>
        <translation>规划规则：</translation>
    </message>
    <message>
        <source>MFU grade</source>
        <translation>MFU 评级</translation>
    </message>
    <message>
        <source>hourly</source>
        <translation>按需</translation>
    </message>
    <message>
        <source>Configurations that fit, ranked. ★ marks the best trade-offs (no other plan is both cheaper and faster). Select a plan to see its details and adopt it in the live charts; click a column to sort.</source>
        <translation>放得下的配置，已排序。★ 表示最佳权衡（没有别的方案既更便宜又更快）。选中一个方案可查看详情并在实时图表中采用；点击列标题可排序。</translation>
    </message>
    <message>
        <source>Leave out cards under 80 GB for full training of dense models of ~70B and more</source>
        <translation>全量训练约 70B 及以上的稠密模型时，排除低于 80 GB 的显卡</translation>
    </message>
    <message>
        <source>Consumer cards without P2P keep tensor/pipeline parallelism and ZeRO-2/3 inside one node</source>
        <translation>不支持 P2P 的消费级显卡，其张量并行、流水线并行和 ZeRO-2/3 只在单个节点内进行</translation>
    </message>
    <message>
        <source>Pipeline stages must divide the model&apos;s layers evenly</source>
        <translation>流水线各段必须均分模型的层数</translation>
    </message>
    <message>
        <source>(untick to allow it)</source>
        <translation>（取消勾选即允许）</translation>
    </message>
    <message>
        <source>Hrs</source>
        <translation>小时数</translation>
    </message>
    <message>
        <source>Model FLOPs utilisation. *: capped, the model gives more than the best published run of the plan&apos;s class reached; the plan is timed and costed at that run&apos;s figure</source>
        <translation>模型算力利用率（MFU）。*：已封顶，模型估算高于该方案同类最佳公开运行达到的值；方案按该运行的数值计算时间和成本</translation>
    </message>
    <message>
        <source>it costs the same ({0})</source>
        <translation>费用相同（{0}）</translation>
    </message>
    <message>
        <source>Against #{0} ({1} × {2}): {3}.</source>
        <translation>与 #{0}（{1} × {2}）相比：{3}。</translation>
    </message>
    <message>
        <source>#{0}: {1} × {2}</source>
        <translation>#{0}：{1} × {2}</translation>
    </message>
    <message>
        <source>Fails the planning rules: {0}</source>
        <translation>违反规划规则：{0}</translation>
    </message>
    <message>
        <source>misses the deadline</source>
        <translation>赶不上截止时间</translation>
    </message>
    <message>
        <source>over budget</source>
        <translation>超出预算</translation>
    </message>
    <message>
        <source>Parallel layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <source> · interleaved ×{0}</source>
        <translation> · 交错调度 ×{0}</translation>
    </message>
    <message>
        <source> · sequence parallel</source>
        <translation> · 序列并行</translation>
    </message>
    <message>
        <source> · optimizer offloaded to CPU</source>
        <translation> · 优化器卸载到 CPU</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>未通过</translation>
    </message>
    <message>
        <source>allowed by you</source>
        <translation>已由你允许</translation>
    </message>
    <message>
        <source>does not apply</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>Planning rules</source>
        <translation>规划规则</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>Memory per GPU (GiB)</source>
        <translation>单卡显存（GiB）</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>spot</source>
        <translation>竞价</translation>
    </message>
    <message>
        <source>week</source>
        <translation>周租</translation>
    </message>
    <message>
        <source>month</source>
        <translation>月租</translation>
    </message>
    <message>
        <source>week cap</source>
        <translation>周封顶</translation>
    </message>
    <message>
        <source>month cap</source>
        <translation>月封顶</translation>
    </message>
    <message>
        <source>Billed on {0}, as set on the Time and budget page</source>
        <translation>按{0}计费，即“时间与预算”页的设定</translation>
    </message>
    <message>
        <source>Billed on {0}, the only price of this card</source>
        <translation>按{0}计费，这是该卡唯一的价格</translation>
    </message>
    <message>
        <source>Billed on {0}, the cheapest price without interruptions</source>
        <translation>按{0}计费，即不会中断的最便宜价格</translation>
    </message>
    <message>
        <source>capped</source>
        <translation>已封顶</translation>
    </message>
    <message>
        <source>recompute {0}</source>
        <translation>{0}重计算</translation>
    </message>
    <message>
        <source>A plan over several nodes priced from a quote not known to offer networked servers (InfiniBand or RoCE) fails this check, ranks after plans priced from quotes of the right kind and says what to ask the vendor</source>
        <translation>跨多个节点的方案，若所用报价未说明服务器之间组网（InfiniBand 或 RoCE），则不通过此项检查，排在按同类报价计价的方案之后，并列出要向供应商确认的问题</translation>
    </message>
    <message>
        <source>Stack</source>
        <translation>框架</translation>
    </message>
    <message>
        <source>Rental</source>
        <translation>计费</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>Framework or tool that runs the plan</source>
        <translation>运行该方案的框架或工具</translation>
    </message>
    <message>
        <source>Calendar time: what you wait, with setup, checkpoints and interruptions</source>
        <translation>日历时间：你实际等待的时间，含环境准备、检查点和中断</translation>
    </message>
    <message numerus="yes">
        <source>%n plan(s) shown; {0} of {1} configurations fit ({2}).</source>
        <translation>
            <numerusform>显示 %n 个方案；{1} 种配置中有 {0} 种放得下（{2}）。</numerusform>
        </translation>
    </message>
    <message>
        <source>it finishes {0} sooner</source>
        <translation>早 {0} 完成</translation>
    </message>
    <message>
        <source>it takes {0} longer</source>
        <translation>多用 {0}</translation>
    </message>
    <message>
        <source>TP {0} · PP {1} · CP {2} · EP {3} · DP {4} · ZeRO-{5} · {6} · micro-batch {7} × accumulation {8} · {9} node(s) of {10}</source>
        <translation>TP {0} · PP {1} · CP {2} · EP {3} · DP {4} · ZeRO-{5} · {6} · 微批次 {7} × 累积 {8} · {9} 个节点，每节点 {10}</translation>
    </message>
    <message>
        <source>per-op selective</source>
        <translation>逐算子选择性</translation>
    </message>
    <message>
        <source>every N-th layer</source>
        <translation>每隔 N 层</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>reference model</source>
        <translation>参考模型</translation>
    </message>
    <message>
        <source>reward model</source>
        <translation>奖励模型</translation>
    </message>
    <message>
        <source>critic</source>
        <translation>评论家模型</translation>
    </message>
    <message>
        <source>vLLM weights</source>
        <translation>vLLM 权重</translation>
    </message>
    <message>
        <source>rollout KV cache</source>
        <translation>采样 KV 缓存</translation>
    </message>
    <message>
        <source>: {0} + {1} kept free on top of the estimate = {2} of {3}</source>
        <translation>：{0} + 估算之外预留 {1} = {2} / {3}</translation>
    </message>
    <message>
        <source>total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Rank plans with a poor estimated MFU (below 30% on mainstream GPUs) after the others, unless nothing else meets the deadline. Poor and good are the guide&apos;s 30% and 40–55% on mainstream GPUs, scaled on a card whose best published run is higher; above the best published run of the plan&apos;s class is optimistic.</source>
        <translation>估计 MFU 为差（主流 GPU 上低于 30%）的方案排在其他方案之后，除非没有其他方案能赶上截止时间。差与良好是规划指南对主流 GPU 给出的 30% 和 40–55%，在最佳公开记录更高的卡上等比放大；高于方案所属类别的最佳公开记录为偏乐观。</translation>
    </message>
    <message>
        <source>#{0} is graded poor (MFU below its card class&apos;s poor line), so it ranks lower.</source>
        <translation>#{0} 评为差（MFU 低于其卡类别的差线），因此排名靠后。</translation>
    </message>
    <message>
        <source>{0} in calendar time ({1} of compute) · {2} tokens/s · MFU {3}</source>
        <translation>日历时间 {0}（算力 {1}）· {2} token/s · MFU {3}</translation>
    </message>
    <message>
        <source>Likely range</source>
        <translation>可能范围</translation>
    </message>
    <message>
        <source>p10–p90 of the model&apos;s error on {0} published {1} runs: {2}</source>
        <translation>模型在 {0} 条已发表的 {1} 训练记录上误差的 p10–p90：{2}</translation>
    </message>
    <message>
        <source>{0}, hidden under compute (not in the step)</source>
        <translation>{0}，与算力重叠（不计入步骤时间）</translation>
    </message>
    <message>
        <source>Step time breakdown</source>
        <translation>单步时间构成</translation>
    </message>
    <message>
        <source>Cost by rental mode</source>
        <translation>各租用方式的成本</translation>
    </message>
    <message>
        <source>Rent or build</source>
        <translation>租用还是自建</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>How it works</source>
        <translation>方案说明</translation>
    </message>
    <message>
        <source>Why it beat the next plan</source>
        <translation>为何优于下一个方案</translation>
    </message>
    <message>
        <source>Not ranked</source>
        <translation>未参与排名</translation>
    </message>
    <message>
        <source>Rent, total</source>
        <translation>租用合计</translation>
    </message>
    <message>
        <source>Build</source>
        <translation>自建</translation>
    </message>
    <message>
        <source>Build, total</source>
        <translation>自建合计</translation>
    </message>
    <message>
        <source>Purchase price</source>
        <translation>购买价格</translation>
    </message>
    <message>
        <source>Server power</source>
        <translation>服务器功率</translation>
    </message>
    <message>
        <source>Electricity tariff</source>
        <translation>电价</translation>
    </message>
    <message>
        <source>Rack / colocation</source>
        <translation>机柜/托管</translation>
    </message>
    <message>
        <source>Operations staff</source>
        <translation>运维人员</translation>
    </message>
    <message>
        <source>Spares</source>
        <translation>备件</translation>
    </message>
    <message>
        <source>Not counted (enter them on the Hardware page): {0}</source>
        <translation>未计入（请在“硬件”页填写）：{0}</translation>
    </message>
    <message>
        <source>Rental (as set)</source>
        <translation>计费（按设定）</translation>
    </message>
    <message>
        <source>Cost ({0})</source>
        <translation>成本（{0}）</translation>
    </message>
    <message>
        <source>{0} node(s) of {1}</source>
        <translation>{0} 个节点，每节点 {1}</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>The search failed: {0}</source>
        <translation>搜索失败：{0}</translation>
    </message>
    <message>
        <source>The search starts when the inputs are complete.</source>
        <translation>输入填写完整后开始搜索。</translation>
    </message>
    <message>
        <source>It is the only plan that fits.</source>
        <translation>这是唯一放得下的方案。</translation>
    </message>
    <message>
        <source>&lt;p&gt;No plan selected.&lt;/p&gt;</source>
        <translation>&lt;p&gt;未选择方案。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Time and cost a plan at no more than the best published MFU of its GPU and framework family (source, date and layout in the plan&apos;s rules)</source>
        <translation>按不高于同类 GPU 和框架最佳公开 MFU 的值计算方案的时间和成本（来源、日期和布局见方案的规则）</translation>
    </message>
    <message>
        <source>Rank plans that meet the deadline or budget only at the estimate, not at the upper end of their range, after safe ones</source>
        <translation>仅按估计值（而非区间上限）满足截止时间或预算的方案，排在稳妥的方案之后</translation>
    </message>
    <message>
        <source>Rank plans with less free memory than the memory model&apos;s p75 error after those with room</source>
        <translation>空闲显存少于显存模型 p75 误差的方案，排在有余量的方案之后</translation>
    </message>
    <message>
        <source>Rank tensor parallelism over PCIe (no NVLink) after plans without it</source>
        <translation>经 PCIe（无 NVLink）做张量并行的方案，排在不需要的方案之后</translation>
    </message>
    <message>
        <source>Why this plan</source>
        <translation>为什么选这个方案</translation>
    </message>
    <message>
        <source>At risk: meets the deadline or budget at the estimate, but not at the upper end of its band.</source>
        <translation>有风险：按估计值满足截止时间或预算，但按区间上限不满足。</translation>
    </message>
    <message>
        <source>Priced from: {0} · region {1} · {2}, {3}</source>
        <translation>价格来源：{0} · 地区 {1} · {2}，{3}</translation>
    </message>
    <message>
        <source>Not compared (no quote of that kind): {0}</source>
        <translation>未比较（没有该类报价）：{0}</translation>
    </message>
    <message>
        <source>Preview: the summary and the live charts show your own layout until you press “Use this layout”.</source>
        <translation>预览：在你点击“采用此布局”之前，摘要和实时图表显示的仍是你自己的布局。</translation>
    </message>
    <message>
        <source>MFU {0}: {1}.</source>
        <translation>MFU {0}：{1}。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Plans are compared on prices without interruptions (or the rental mode you set); a plan billed on spot because its card has no other price fails this check</source>
        <translation>各方案按不会中断的价格比较（或按你设定的租用方式）；因卡型没有其他价格而按竞价计费的方案不通过此检查</translation>
    </message>
    <message>
        <source>it costs {0} less ({1}% cheaper)</source>
        <translation>便宜 {0}（省 {1}%）</translation>
    </message>
    <message>
        <source>it costs {0} more</source>
        <translation>贵 {0}</translation>
    </message>
    <message>
        <source>training passes {0}, {1}</source>
        <translation>训练部分 {0}，{1}</translation>
    </message>
</context>
<context>
    <name>PriceSources</name>
    <message>
        <source>Prices from</source>
        <translation>价格来源地区</translation>
    </message>
    <message>
        <source>Where the GPUs are rented: default prices come from that region&apos;s quotes only. Default: mainland China for CNY plans, worldwide for USD plans</source>
        <translation>租用 GPU 的地区：默认价格只取该地区的报价。默认：人民币方案取中国大陆，美元方案取全球</translation>
    </message>
    <message>
        <source>Kinds of quote</source>
        <translation>报价种类</translation>
    </message>
    <message>
        <source>Which kinds of default quote the plans are priced from. Default: list card-hour prices and package or wholesale month prices</source>
        <translation>方案按哪些种类的默认报价计价。默认：公开的卡时标价，以及套餐或整机批发的月租价</translation>
    </message>
    <message>
        <source>Other region&apos;s quotes</source>
        <translation>其他地区的报价</translation>
    </message>
    <message>
        <source>Price a GPU from the other region&apos;s quotes, converted at the exchange rate, when its own region has none. Default: off for mainland China, on for worldwide USD plans</source>
        <translation>本地区没有某款 GPU 的报价时，按汇率换算另一地区的报价来计价。默认：中国大陆不使用，全球美元方案使用</translation>
    </message>
    <message>
        <source>the currency&apos;s region</source>
        <translation>按币种对应的地区</translation>
    </message>
    <message>
        <source>mainland China</source>
        <translation>中国大陆</translation>
    </message>
    <message>
        <source>worldwide</source>
        <translation>全球</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>used, converted</source>
        <translation>使用（按汇率换算）</translation>
    </message>
    <message>
        <source>not used</source>
        <translation>不使用</translation>
    </message>
</context>
<context>
    <name>Project</name>
    <message>
        <source>research and experiments</source>
        <translation>研发验证</translation>
    </message>
    <message>
        <source>stable training</source>
        <translation>稳定训练</translation>
    </message>
    <message>
        <source>burst</source>
        <translation>突发扩容</translation>
    </message>
    <message>
        <source>inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>CPU preprocessing</source>
        <translation>CPU 预处理</translation>
    </message>
    <message>
        <source>give documents_per_s or output_tokens_per_s, not both</source>
        <translation>“离线每秒文档数”与“离线每秒输出 token 数”只能填写其一</translation>
    </message>
    <message>
        <source>output_tokens must not exceed context_tokens</source>
        <translation>output_tokens 不能超过 context_tokens</translation>
    </message>
    <message>
        <source>prompt_tokens + output_tokens must not exceed context_tokens</source>
        <translation>prompt_tokens + output_tokens 不能超过 context_tokens</translation>
    </message>
    <message>
        <source>an inference phase needs an &apos;inference&apos; section</source>
        <translation>推理阶段需要“inference”部分</translation>
    </message>
    <message>
        <source>a cpu_preprocessing phase needs a &apos;cpu&apos; section</source>
        <translation>cpu_preprocessing 阶段需要“cpu”部分</translation>
    </message>
    <message>
        <source>an inference phase needs &apos;weeks&apos; (how long it serves)</source>
        <translation>推理阶段需要“weeks”（提供服务的时长）</translation>
    </message>
    <message>
        <source>end_week must be after start_week</source>
        <translation>end_week 必须晚于 start_week</translation>
    </message>
    <message>
        <source>end_week needs start_week</source>
        <translation>设置 end_week 时也需要 start_week</translation>
    </message>
    <message>
        <source>rental_mode {mode} does not apply to a {kind} phase</source>
        <translation>rental_mode {mode} 不适用于 {kind} 阶段</translation>
    </message>
    <message>
        <source>phase names must be unique</source>
        <translation>阶段名称不能重复</translation>
    </message>
    <message>
        <source>main_phase {name} is not a phase</source>
        <translation>main_phase {name} 不是已有的阶段</translation>
    </message>
    <message>
        <source>main_phase must be a research, training or burst phase</source>
        <translation>main_phase 必须是研究、训练或突发（burst）阶段</translation>
    </message>
    <message>
        <source>your quote</source>
        <translation>你的报价</translation>
    </message>
    <message>
        <source>a CPU phase must clean or tokenise (or both)</source>
        <translation>CPU 阶段必须做清洗或分词（或两者）</translation>
    </message>
    <message>
        <source>On the same servers the phase takes {need} and overruns its slot of {slot} by {over}: every later phase moves back.</source>
        <translation>在同样的服务器上，该阶段需要 {need}，比为其安排的 {slot}多出 {over}：之后的每个阶段都要顺延。</translation>
    </message>
    <message>
        <source>No plan finishes within {days}.</source>
        <translation>没有方案能在 {days}内完成。</translation>
    </message>
    <message>
        <source>To keep the deadline of {days}: {n} × {gpu} on {nodes} node(s), TP {tp} · PP {pp} · EP {ep} · DP {dp} · ZeRO-{zero} ({fw}), {mode}, {cal}, {cost:,.0f} {cur}.</source>
        <translation>要保住 {days}的截止时间：{n} × {gpu}，{nodes} 个节点，TP {tp} · PP {pp} · EP {ep} · DP {dp} · ZeRO-{zero}（{fw}），{mode}，{cal}，{cost:,.0f} {cur}。</translation>
    </message>
    <message>
        <source>To keep the deadline of {days}: {n} × {gpu} on {nodes} node(s), TP {tp} · PP {pp} · EP {ep} · DP {dp} · ZeRO-{zero} ({fw}), {mode}, {cal}, {cost:,.0f} {cur} ({per:,.0f} {cur} per hour worked).</source>
        <translation>要保住 {days}的截止时间：{n} × {gpu}，{nodes} 个节点，TP {tp} · PP {pp} · EP {ep} · DP {dp} · ZeRO-{zero}（{fw}），{mode}，{cal}，{cost:,.0f} {cur}（每工作小时 {per:,.0f} {cur}）。</translation>
    </message>
    <message>
        <source>Budget {budget:,.0f} {cur}: some phases have no price, so the total cannot be compared with it.</source>
        <translation>预算 {budget:,.0f} {cur}：有的阶段没有价格，项目总额无法与预算比较。</translation>
    </message>
    <message>
        <source>Budget {budget:,.0f} {cur}: the project costs {total:,.0f} {cur}, {far:,.0f} {cur} at the likely range&apos;s far end; {left:,.0f} {cur} left.</source>
        <translation>预算 {budget:,.0f} {cur}：项目花费 {total:,.0f} {cur}，按可能区间的上端为 {far:,.0f} {cur}；还剩 {left:,.0f} {cur}。</translation>
    </message>
    <message>
        <source>Over the budget of {budget:,.0f} {cur}: the project costs {total:,.0f} {cur}, {far:,.0f} {cur} at the likely range&apos;s far end, {over:,.0f} {cur} over.</source>
        <translation>超出预算 {budget:,.0f} {cur}：项目花费 {total:,.0f} {cur}，按可能区间的上端为 {far:,.0f} {cur}，超出 {over:,.0f} {cur}。</translation>
    </message>
    <message>
        <source>Budget {budget:,.0f} {cur}: the project costs {total:,.0f} {cur}, but {far:,.0f} {cur} at the likely range&apos;s far end, {over:,.0f} {cur} over.</source>
        <translation>预算 {budget:,.0f} {cur}：项目花费 {total:,.0f} {cur}，但按可能区间的上端为 {far:,.0f} {cur}，超出 {over:,.0f} {cur}。</translation>
    </message>
    <message>
        <source>{name}: {cost:,.0f} {cur}, {far:,.0f} {cur} at the far end ({share:.0f}% of the total).</source>
        <translation>{name}：{cost:,.0f} {cur}，上端 {far:,.0f} {cur}（占总额 {share:.0f}%）。</translation>
    </message>
    <message>
        <source>Cut {name} first, the largest phase: it must come down by {over:,.0f} {cur} ({pct:.0f}% of its far end) for the project to fit the budget.</source>
        <translation>先削减最大的阶段 {name}：它要少花 {over:,.0f} {cur}（其上端的 {pct:.0f}%），项目才能控制在预算内。</translation>
    </message>
    <message>
        <source>Cutting {name}, the largest phase, is not enough: even without it the project is {over:,.0f} {cur} over; cut more phases or raise the budget.</source>
        <translation>只削减最大的阶段 {name} 还不够：即使去掉它，项目仍超出 {over:,.0f} {cur}；请削减更多阶段或提高预算。</translation>
    </message>
    <message>
        <source>No price for the rental mode you chose ({mode}): enter a quote for it.</source>
        <translation>你选择的租用方式（{mode}）没有价格：请输入报价。</translation>
    </message>
    <message>
        <source>{name}: priced in {cur}, the project&apos;s currency ({own} in its own plan; quotes converted).</source>
        <translation>{name}：按项目货币 {cur} 计价（其自身方案为 {own}；报价已换算）。</translation>
    </message>
    <message>
        <source>{name}: the work takes {need:.1f} days at {h:g} h/week, longer than the {days:.1f} days planned.</source>
        <translation>{name}：按每周 {h:g} 小时需要 {need:.1f} 天，超过计划的 {days:.1f} 天。</translation>
    </message>
    <message>
        <source>No rental price for {gpu}: enter a quote.</source>
        <translation>{gpu} 没有租用价格：请输入报价。</translation>
    </message>
    <message>
        <source>unknown GPU {id}</source>
        <translation>未知的 GPU {id}</translation>
    </message>
    <message>
        <source>{name}: no GPU can serve this model at the latency target inside one node</source>
        <translation>{name}：单个节点内没有 GPU 能在延迟目标下服务此模型</translation>
    </message>
    <message>
        <source>{n} cards for {days}: a burst. Confirm that the vendor can start them all on demand for these dates (real stock and real-time scale-out, not schedulable capacity), or reserve them ahead.</source>
        <translation>{n} 张卡用 {days}：属于突发扩容。请与供应商确认这些日期能按需一次开出全部卡（真实库存、实时扩容，而不是“可调度”容量），或提前预留。</translation>
    </message>
    <message>
        <source>{n} × {gpu} at TP {tp} would cost {cost:,.0f} {cur}, but its KV cache has {kv:.1f} GiB per card for {users} users per replica: a current vLLM keeps up to {graphs:.1f} GiB per card for CUDA graphs before sizing the KV cache, which would leave it no room for one request. It is ranked after the plans with room; a larger TP group or card gives the KV cache more.</source>
        <translation>{n} × {gpu}（TP {tp}）费用为 {cost:,.0f} {cur}，但其 KV 缓存每卡仅 {kv:.1f} GiB，每个副本 {users} 个用户：新版 vLLM 在划分 KV 缓存前会为 CUDA 图预留每卡至多 {graphs:.1f} GiB，这样连一个请求的空间都不剩。因此它排在有余量的方案之后；更大的 TP 组或更大的显卡能给 KV 缓存更多空间。</translation>
    </message>
    <message>
        <source>Default CPU price ({source}, {date}): replace it with your quote.</source>
        <translation>默认 CPU 价格（{source}，{date}）：请替换为你的报价。</translation>
    </message>
    <message>
        <source>From week {from:.1f}, {a} and {b} share {gpu} for {span} only: too short for the ~40 h/week rule, which is for several weeks of use: card-hours for both.</source>
        <translation>从第 {from:.1f} 周起，{a} 与 {b} 共用 {gpu} 仅 {span}：时间太短，约 40 小时/周的规则针对连续数周的使用：两者都按卡时租用。</translation>
    </message>
    <message>
        <source>Weeks {from:g}–{to:g}: {a} and {b} share {gpu} for {h:.0f} h/week together, above the ~40 h/week rule: one whole {machine}-card machine by the month covers both, taking turns on its {n} cards.</source>
        <translation>第 {from:g}–{to:g} 周：{a} 与 {b} 合计每周使用 {gpu} {h:.0f} 小时，超过约 40 小时/周的规则：按月租一台 {machine} 卡整机即可覆盖两者，轮流使用其 {n} 张卡。</translation>
    </message>
    <message>
        <source>Weeks {from:g}–{to:g}: {a} and {b} use {gpu} {h:.0f} h/week together, above the ~40 h/week rule, but need {n} cards, more than one {machine}-card machine: rent whole machines for the larger phase and share them.</source>
        <translation>第 {from:g}–{to:g} 周：{a} 与 {b} 合计每周使用 {gpu} {h:.0f} 小时，超过约 40 小时/周的规则，但需要 {n} 张卡，多于一台 {machine} 卡机器：为较大的阶段租整机并共用。</translation>
    </message>
    <message>
        <source>Weeks {from:g}–{to:g}: {a} and {b} use {gpu} only {h:.0f} h/week together, under the ~40 h/week rule: card-hours for both.</source>
        <translation>第 {from:g}–{to:g} 周：{a} 与 {b} 合计每周只使用 {gpu} {h:.0f} 小时，低于约 40 小时/周的规则：两者都按卡时租用。</translation>
    </message>
    <message>
        <source>the project&apos;s {n} phases on this GPU type: {names}</source>
        <translation>本项目在这种 GPU 上的 {n} 个阶段：{names}</translation>
    </message>
    <message>
        <source>serving {hours} hours a week for {weeks} weeks</source>
        <translation>每周服务 {hours} 小时，共 {weeks} 周</translation>
    </message>
    <message>
        <source>Some phases have no price: the project total is unknown until you enter quotes for them.</source>
        <translation>部分阶段没有价格：输入其报价之前，项目总价未知。</translation>
    </message>
    <message>
        <source>Does not fit: {need:.1f} GiB per GPU ({head:.1f} GiB kept free) on {n} GPU(s) of {cap:.1f} GiB, {over:.1f} GiB over.</source>
        <translation>放不下：{n} 张 GPU 上每卡需 {need:.1f} GiB（含预留 {head:.1f} GiB），而每卡只有 {cap:.1f} GiB，超出 {over:.1f} GiB。</translation>
    </message>
    <message>
        <source>Does not fit: {need:.1f} GiB per GPU ({head:.1f} GiB kept free) on {n} GPU(s) of {cap:.1f} GiB, {over:.1f} GiB over; no count up to {limit} GPUs fits (constraints.max_gpus).</source>
        <translation>放不下：{n} 张 GPU 上每卡需 {need:.1f} GiB（含预留 {head:.1f} GiB），而每卡只有 {cap:.1f} GiB，超出 {over:.1f} GiB；直到 {limit} 张 GPU 仍放不下（“时间与预算”页的“GPU 数上限”）。</translation>
    </message>
    <message>
        <source>This layout cannot run the change.</source>
        <translation>此并行布局无法运行该变化。</translation>
    </message>
    <message>
        <source>{n} cards fit in the same {slots}-slot server: ask the vendor to add cards in place (vendor checklist: in-place upgrade{confirmed}).</source>
        <translation>{n} 张卡可装入同一台 {slots} 卡槽服务器：请供应商原地加卡（供应商清单：原地升级{confirmed}）。</translation>
    </message>
    <message>
        <source>, confirmed</source>
        <translation>，已确认</translation>
    </message>
    <message>
        <source>, not yet confirmed</source>
        <translation>，尚未确认</translation>
    </message>
    <message>
        <source>{n} cards need more than one {slots}-slot server: new nodes, data migration and a network test.</source>
        <translation>{n} 张卡超过一台 {slots} 卡槽服务器：需要新节点、数据迁移和网络测试。</translation>
    </message>
    <message>
        <source>Does not fit up to {n} GPUs (constraints.max_gpus).</source>
        <translation>直到 {n} 张 GPU 仍放不下（“时间与预算”页的“GPU 数上限”）。</translation>
    </message>
    <message>
        <source>{a} {b}</source>
        <translation>{a}{b}</translation>
    </message>
    <message>
        <source>Ten times the data changes the cheapest rental from {a} to {b}.</source>
        <translation>数据量增加十倍后，最便宜的租用方式从{a}变为{b}。</translation>
    </message>
    <message>
        <source>{engine}: KV cache {kv} GiB per GPU, first token in {ttft} ms on an idle replica</source>
        <translation>{engine}：单卡 KV 缓存 {kv} GiB，空闲副本上首个 token 用时 {ttft} ms</translation>
    </message>
    <message>
        <source>serving: TP {tp}, {b} users per replica, {r} replica(s), {tps} tokens/s per GPU ({bound}), {per_m:,.2f} {cur} per million tokens</source>
        <translation>推理服务：TP {tp}，每副本 {b} 个用户，{r} 个副本，单卡 {tps} token/s（{bound}），每百万 token {per_m:,.2f} {cur}</translation>
    </message>
    <message>
        <source>serving: TP {tp}, {b} users per replica, {r} replica(s), {tps} tokens/s per GPU ({bound})</source>
        <translation>推理服务：TP {tp}，每副本 {b} 个用户，{r} 个副本，单卡 {tps} token/s（{bound}）</translation>
    </message>
    <message>
        <source>host bound: the engine&apos;s CPU work per decode step</source>
        <translation>受限于主机：引擎每个解码步的 CPU 工作</translation>
    </message>
    <message>
        <source>memory bound</source>
        <translation>受限于显存带宽</translation>
    </message>
    <message>
        <source>compute bound</source>
        <translation>受限于算力</translation>
    </message>
    <message>
        <source>under full load ({b} requests per replica): 95% of tokens within {itl} ms of the previous one, 95% of first tokens within {ttft} ms</source>
        <translation>满负载时（每副本 {b} 个请求）：95% 的 token 与上一个 token 间隔不超过 {itl} ms，95% 的首个 token 在 {ttft} ms 内返回</translation>
    </message>
    <message>
        <source>offline target {docs} documents/s ({tps} output tokens/s): {r} replica(s) at {per} tokens/s each</source>
        <translation>离线目标每秒 {docs} 篇文档（每秒输出 {tps} 个 token）：{r} 个副本，每个副本每秒 {per} 个 token</translation>
    </message>
    <message>
        <source>offline target {docs} documents/s ({tps} output tokens/s): {r} replica(s) at {per} tokens/s each, {far} tokens/s in all at the far end of the serving validation band (9 in 10 of {rows} published runs were at most {slow} slower than modelled): {spare} to spare</source>
        <translation>离线目标每秒 {docs} 篇文档（每秒输出 {tps} 个 token）：{r} 个副本，每个副本每秒 {per} 个 token；按推理服务验证区间的不利端计算合计每秒 {far} 个 token（{rows} 次公开测试中十分之九比模型预测慢不超过 {slow}）：余量 {spare}</translation>
    </message>
    <message>
        <source>each new prompt&apos;s prefill stalls every running user: 95% of tokens within {itl} ms is {gaps} times the {gap} ms gap the target allows. {engine} {flags} bounds the stall: 95% within {itl2} ms, 95% of first tokens within {ttft2} ms ({source})</source>
        <translation>每个新请求的提示预填充都会让所有正在生成的用户停顿：95% 的 token 间隔不超过 {itl} ms，是目标允许的 {gap} ms 间隔的 {gaps} 倍。{engine} {flags} 可限制这一停顿：95% 的 token 间隔不超过 {itl2} ms，95% 的首个 token 在 {ttft2} ms 内返回（{source}）</translation>
    </message>
    <message>
        <source>an MFU of {mfu:.2g} is below 0.1%: no training run is that slow; enter a measured value</source>
        <translation>MFU 为 {mfu:.2g}，低于 0.1%：没有哪次训练这么慢；请填写实测值</translation>
    </message>
    <message>
        <source>No plan within {n} GPUs finishes the changed job within {days}. {why}</source>
        <translation>{n} 张 GPU 以内没有方案能在 {days}内完成变化后的任务。{why}</translation>
    </message>
    <message>
        <source>No plan within {n} GPUs finishes the changed job within {days} (the fastest: {best}).</source>
        <translation>{n} 张 GPU 以内没有方案能在 {days}内完成变化后的任务（最快：{best}）。</translation>
    </message>
    <message>
        <source>No plan billed by the hour within {n} GPUs finishes the changed job within {days}. Only {g} × {gpu} does, billed as {mode}: {cost:,.0f} {cur} for {cal} of work ({per:,.0f} {cur} per hour worked). A job this short is planned on card-hours (planning guide: whole machines for long runs): enter a card-hour quote for it, or choose that rental mode.</source>
        <translation>{n} 张 GPU 以内没有按小时计费的方案能在 {days}内完成变化后的任务。只有 {g} × {gpu} 可以，按{mode}计费：{cost:,.0f} {cur}，工作 {cal}（每工作小时 {per:,.0f} {cur}）。这么短的任务按卡时规划（规划指南：整机适合长期运行）：请为它输入卡时报价，或选择该租用方式。</translation>
    </message>
    <message>
        <source>at {h:g} hours a week no session outlasts its setup: the work never finishes</source>
        <translation>每周 {h:g} 小时，每次使用都不够完成环境准备：任务永远无法完成</translation>
    </message>
    <message>
        <source>the job would take {years:,.0f} years on the calendar (more than 100)</source>
        <translation>任务按日历需要 {years:,.0f} 年（超过 100 年）</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>interleaved stages</source>
        <translation>交错调度段数</translation>
    </message>
    <message>
        <source>sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>optimizer offload</source>
        <translation>优化器卸载</translation>
    </message>
    <message>
        <source>parameter offload</source>
        <translation>参数卸载</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>global batch</source>
        <translation>全局批次</translation>
    </message>
    <message>
        <source>pipeline micro-batches</source>
        <translation>流水线微批次数</translation>
    </message>
    <message>
        <source>pipeline micro-batch size</source>
        <translation>流水线微批次大小</translation>
    </message>
    <message>
        <source>The search cannot plan the changed job: {e}</source>
        <translation>搜索无法为变化后的任务给出方案：{e}</translation>
    </message>
    <message>
        <source>length_spread sharegpt needs prompts under 1024 tokens and prompt + output under 2048</source>
        <translation>length_spread 为 sharegpt 时，提示须少于 1024 个 token，且提示 + 输出少于 2048</translation>
    </message>
    <message>
        <source>Serves {model} with {precision} weights.</source>
        <translation>部署的模型：{model}，{precision} 权重。</translation>
    </message>
    <message>
        <source>{gpu} is a GeForce card: NVIDIA&apos;s GeForce driver licence excludes datacenter deployment (§2.1.3), so a production service on it rests on the vendor&apos;s terms; ask the vendor in writing.</source>
        <translation>{gpu} 是 GeForce 显卡：NVIDIA GeForce 驱动许可不允许数据中心部署（§2.1.3），在其上运行生产服务取决于供应商的条款；请向供应商书面确认。</translation>
    </message>
    <message>
        <source>TP {tp} on {gpu} without P2P: each layer&apos;s all-reduces go through host memory (counted in the time); keep each replica&apos;s cards in one server.</source>
        <translation>{gpu} 上的 TP {tp} 没有 P2P：每层的 all-reduce 经由主机内存（已计入时间）；每个副本的显卡须在同一台服务器内。</translation>
    </message>
    <message>
        <source>{name}: TensorRT-LLM runs FP8 weights only on Ada, Hopper and Blackwell GPUs (its support matrix); choose such a GPU, vLLM (weight-only FP8 on Ampere) or another precision</source>
        <translation>{name}：TensorRT-LLM 只在 Ada、Hopper 和 Blackwell GPU 上运行 FP8 权重（见其支持矩阵）；请选择这类 GPU、改用 vLLM（在 Ampere 上以仅权重方式运行 FP8）或换一种精度</translation>
    </message>
</context>
<context>
    <name>ProjectPage</name>
    <message>
        <source>per core-hour</source>
        <translation>按核时</translation>
    </message>
    <message>
        <source>nodes per month</source>
        <translation>按月租节点</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>8 · Project</source>
        <translation>8 · 项目</translation>
    </message>
    <message>
        <source>A team does not rent for one run: list the phases — data cleaning on CPU nodes, experiments, stable training, bursts, serving — each sized and priced for its own job. The total is the sum of the phases; the what-if table grows the main training phase.</source>
        <translation>团队租的不只是一次训练：列出各个阶段——在 CPU 节点上清洗数据、实验、稳定训练、突发扩容、上线推理——每个阶段按自己的任务选配和计价。总价是各阶段之和；假设分析表让主训练阶段的工作量增长。</translation>
    </message>
    <message>
        <source>Phases (in order)</source>
        <translation>阶段（按顺序）</translation>
    </message>
    <message>
        <source>Add phase</source>
        <translation>添加阶段</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Selected phase</source>
        <translation>所选阶段</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Weeks</source>
        <translation>周数</translation>
    </message>
    <message>
        <source>Hours per week</source>
        <translation>每周小时数</translation>
    </message>
    <message>
        <source>Rental mode</source>
        <translation>租用方式</translation>
    </message>
    <message>
        <source>Concurrent users</source>
        <translation>并发用户</translation>
    </message>
    <message>
        <source>Context per user</source>
        <translation>每位用户的上下文</translation>
    </message>
    <message>
        <source>Answer length</source>
        <translation>回答长度</translation>
    </message>
    <message>
        <source>Prompt length</source>
        <translation>提示长度</translation>
    </message>
    <message>
        <source>Serving precision</source>
        <translation>推理精度</translation>
    </message>
    <message>
        <source>KV-cache precision</source>
        <translation>KV 缓存精度</translation>
    </message>
    <message>
        <source>Speed per user</source>
        <translation>每位用户的速度</translation>
    </message>
    <message>
        <source>Serve on</source>
        <translation>推理 GPU</translation>
    </message>
    <message>
        <source>Offline documents per second</source>
        <translation>离线每秒文档数</translation>
    </message>
    <message>
        <source>Offline output tokens per second</source>
        <translation>离线每秒输出 token 数</translation>
    </message>
    <message>
        <source>Raw text</source>
        <translation>原始文本</translation>
    </message>
    <message>
        <source>Cores per node</source>
        <translation>每节点核数</translation>
    </message>
    <message>
        <source>none (size for the users)</source>
        <translation>无（按并发用户配置）</translation>
    </message>
    <message>
        <source>An offline batch job&apos;s throughput target: the replicas are sized to finish this many documents (or generate this many output tokens) per second, each at its full batch, instead of serving the concurrent users. Give one of the two.</source>
        <translation>离线批处理任务的吞吐量目标：按每秒完成这么多篇文档（或每秒生成这么多输出 token）来确定副本数，每个副本都以满批次运行，而不是按并发用户配置。两项只填其一。</translation>
    </message>
    <message>
        <source>what the work takes</source>
        <translation>按工作量</translation>
    </message>
    <message>
        <source> weeks</source>
        <translation> 周</translation>
    </message>
    <message>
        <source>the plan&apos;s</source>
        <translation>沿用方案</translation>
    </message>
    <message>
        <source> h/week</source>
        <translation> 小时/周</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> token</translation>
    </message>
    <message>
        <source>context − answer</source>
        <translation>上下文 − 回答</translation>
    </message>
    <message>
        <source>as the weights (fp8 with fp8, else bf16)</source>
        <translation>跟随权重（权重为 fp8 时用 fp8，否则 bf16）</translation>
    </message>
    <message>
        <source>Prompt tokens per request: the prefill work (time to first token) and the KV cache each request holds (vLLM and SGLang: the prompt plus the tokens generated so far; TensorRT-LLM reserves prompt plus the whole answer). Prompt plus answer must fit the context. Default: context per user minus answer length</source>
        <translation>每个请求的提示 token 数：决定预填充的计算量（首个 token 的用时）和每个请求占用的 KV 缓存（vLLM 和 SGLang：提示加上已生成的 token；TensorRT-LLM 预留提示加完整回答）。提示加回答不得超过上下文。默认：每位用户的上下文减去回答长度</translation>
    </message>
    <message>
        <source>Precision of the KV cache: fp8 halves its memory per token against bf16, so more users fit on a GPU. vLLM and SGLang --kv-cache-dtype (default auto: the model&apos;s precision); TensorRT-LLM kv_cache_quant_algo FP8. Default here: fp8 with fp8 weights, else bf16</source>
        <translation>KV 缓存的精度：fp8 每个 token 占用的显存是 bf16 的一半，一张 GPU 能容纳更多用户。vLLM 和 SGLang --kv-cache-dtype（默认 auto：模型的精度）；TensorRT-LLM kv_cache_quant_algo FP8。此处默认：权重为 fp8 时用 fp8，否则 bf16</translation>
    </message>
    <message>
        <source> tokens/s</source>
        <translation> token/s</translation>
    </message>
    <message>
        <source>no target</source>
        <translation>无目标</translation>
    </message>
    <message>
        <source>cheapest per million tokens</source>
        <translation>每百万 token 最便宜的</translation>
    </message>
    <message>
        <source>Edit workload…</source>
        <translation>编辑工作负载…</translation>
    </message>
    <message>
        <source>The plan&apos;s model, training and data are set in steps 1–5</source>
        <translation>方案的模型、训练和数据在第 1–5 步设置</translation>
    </message>
    <message>
        <source>Use the current plan</source>
        <translation>使用当前方案</translation>
    </message>
    <message>
        <source>Give this phase its own copy of the plan as it is now</source>
        <translation>为此阶段保存当前方案的一份副本</translation>
    </message>
    <message>
        <source>Follow the plan</source>
        <translation>跟随方案</translation>
    </message>
    <message>
        <source>Drop this phase&apos;s own copy: it runs the plan of steps 1–5</source>
        <translation>丢弃此阶段的副本：改为运行第 1–5 步的方案</translation>
    </message>
    <message>
        <source>Project cost and timeline</source>
        <translation>项目费用与时间线</translation>
    </message>
    <message>
        <source>What if the work grows</source>
        <translation>如果工作量增长</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>Rental</source>
        <translation>租用方式</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>In place</source>
        <translation>原地升级</translation>
    </message>
    <message>
        <source>Layout changes</source>
        <translation>并行布局变化</translation>
    </message>
    <message>
        <source>{0}. {1} ({2})</source>
        <translation>{0}. {1}（{2}）</translation>
    </message>
    <message>
        <source>the cheapest</source>
        <translation>最便宜的</translation>
    </message>
    <message>
        <source>Its own workload: {0} on {1} × {2}.</source>
        <translation>自有工作负载：{0}，{1} × {2}。</translation>
    </message>
    <message>
        <source>Runs the plan of steps 1–5 (model, training, data, hardware).</source>
        <translation>运行第 1–5 步的方案（模型、训练、数据、硬件）。</translation>
    </message>
    <message>
        <source>Hours</source>
        <translation>小时数</translation>
    </message>
    <message>
        <source>No result: {0}</source>
        <translation>无结果：{0}</translation>
    </message>
    <message>
        <source>Working out the project&apos;s cost and timeline…</source>
        <translation>正在计算项目的费用与时间线…</translation>
    </message>
    <message>
        <source>Project total: {0} over {1}</source>
        <translation>项目总价：{0}，共 {1}</translation>
    </message>
    <message>
        <source>{0} × {1}</source>
        <translation>{0} × {1}</translation>
    </message>
    <message>
        <source>{0} node(s), {1} CPU cores</source>
        <translation>{0} 个节点，{1} 个 CPU 核</translation>
    </message>
    <message>
        <source>week</source>
        <translation>周</translation>
    </message>
    <message>
        <source>hours from the start</source>
        <translation>自开始起的小时数</translation>
    </message>
    <message>
        <source>days from the start</source>
        <translation>自开始起的天数</translation>
    </message>
    <message>
        <source>weeks from the start</source>
        <translation>自开始起的周数</translation>
    </message>
    <message>
        <source>2× parameters</source>
        <translation>参数量 ×2</translation>
    </message>
    <message>
        <source>10× data</source>
        <translation>数据量 ×10</translation>
    </message>
    <message>
        <source>next GPU count</source>
        <translation>下一档 GPU 数</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>global batch</source>
        <translation>全局批次</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <source>optimizer offload</source>
        <translation>优化器卸载</translation>
    </message>
    <message>
        <source>parameter offload</source>
        <translation>参数卸载</translation>
    </message>
    <message>
        <source>pipeline micro-batches</source>
        <translation>流水线微批次数</translation>
    </message>
    <message>
        <source>pipeline micro-batch</source>
        <translation>流水线微批次</translation>
    </message>
    <message>
        <source>Serving engine</source>
        <translation>推理引擎</translation>
    </message>
    <message>
        <source>Engine memory share</source>
        <translation>引擎显存占比</translation>
    </message>
    <message>
        <source>How the engine reserves memory for the KV cache. vLLM (default) profiles a forward pass and takes the memory share of the whole card; TensorRT-LLM takes that share of the memory left free and holds each request&apos;s whole length; SGLang&apos;s mem_fraction_static holds weights and KV cache</source>
        <translation>引擎如何为 KV 缓存预留显存。vLLM（默认）先试跑一次前向，再占用整卡显存的上述占比；TensorRT-LLM 占用剩余空闲显存的上述占比，并为每个请求预留完整长度；SGLang 的 mem_fraction_static 同时容纳权重和 KV 缓存</translation>
    </message>
    <message>
        <source>Request lengths</source>
        <translation>请求长度</translation>
    </message>
    <message>
        <source>all alike</source>
        <translation>全部相同</translation>
    </message>
    <message>
        <source>varied, like chat (ShareGPT)</source>
        <translation>长短不一，如聊天（ShareGPT）</translation>
    </message>
    <message>
        <source>How prompt and answer lengths vary between requests. All alike (default): every request at the lengths above. Varied: as spread as chat traffic within the ShareGPT filter of the engines&apos; benchmark scripts (prompt under 1024 tokens, prompt plus answer under 2048); long requests hold their KV cache longer, so fewer users fit per GPU</source>
        <translation>各请求的提示和回答长度如何变化。全部相同（默认）：每个请求都是上面的长度。长短不一：像聊天流量一样分散，范围取引擎基准脚本的 ShareGPT 过滤条件（提示少于 1024 个 token，提示加回答少于 2048）；长请求占用 KV 缓存更久，所以每块 GPU 容纳的用户更少</translation>
    </message>
    <message>
        <source>{0}. {1}</source>
        <translation>{0}. {1}</translation>
    </message>
    <message>
        <source>Share of each GPU the engine takes for weights, activations and KV cache: vLLM gpu_memory_utilization (default 0.9), TensorRT-LLM kv_cache_free_gpu_mem_fraction, SGLang mem_fraction_static (default by the card&apos;s memory and TP). Default here: each engine&apos;s own</source>
        <translation>引擎在每张 GPU 上为权重、激活值和 KV 缓存占用的显存比例：vLLM gpu_memory_utilization（默认 0.9）、TensorRT-LLM kv_cache_free_gpu_mem_fraction、SGLang mem_fraction_static（默认值随显卡显存和 TP 而定）。此处默认：各引擎自己的默认值</translation>
    </message>
    <message>
        <source>engine default</source>
        <translation>引擎默认</translation>
    </message>
</context>
<context>
    <name>QuoteSheets</name>
    <message>
        <source>{file}: cell {cell}: {why}</source>
        <translation>{file}：单元格 {cell}：{why}</translation>
    </message>
    <message>
        <source>{file}: {why}</source>
        <translation>{file}：{why}</translation>
    </message>
    <message>
        <source>no worksheet with the quote header (section, item, value, …)</source>
        <translation>没有带报价表头（section, item, value, …）的工作表</translation>
    </message>
    <message>
        <source>not a quote sheet: expected .csv or .xlsx</source>
        <translation>不是报价单：应为 .csv 或 .xlsx</translation>
    </message>
    <message>
        <source>not UTF-8 text (save the sheet as CSV UTF-8)</source>
        <translation>不是 UTF-8 文本（请另存为 CSV UTF-8）</translation>
    </message>
    <message>
        <source>not a text file</source>
        <translation>不是文本文件</translation>
    </message>
    <message>
        <source>more than {n} lines</source>
        <translation>超过 {n} 行</translation>
    </message>
    <message>
        <source>not valid CSV ({why})</source>
        <translation>不是有效的 CSV（{why}）</translation>
    </message>
    <message>
        <source>the workbook unpacks to too much data</source>
        <translation>工作簿解压后数据过大</translation>
    </message>
    <message>
        <source>not an XLSX workbook</source>
        <translation>不是 XLSX 工作簿</translation>
    </message>
    <message>
        <source>not a readable XLSX workbook ({why})</source>
        <translation>无法读取的 XLSX 工作簿（{why}）</translation>
    </message>
    <message>
        <source>more than {n} worksheets ({got}); one vendor a worksheet</source>
        <translation>工作表超过 {n} 个（共 {got} 个）；每个工作表一家供应商</translation>
    </message>
    <message>
        <source>a formula with no saved result ({v!r}): open and save the sheet in a spreadsheet program, or type the value</source>
        <translation>公式没有保存的计算结果（{v!r}）：请在电子表格软件中打开并保存该表，或直接填入数值</translation>
    </message>
    <message>
        <source>no header line with section, item and value</source>
        <translation>没有包含 section、item 和 value 的表头行</translation>
    </message>
    <message>
        <source>longer than {n} characters</source>
        <translation>超过 {n} 个字符</translation>
    </message>
    <message>
        <source>section must be vendor, offer or question, not {v!r}</source>
        <translation>类别必须是 vendor（供应商）、offer（报价）或 question（问题），而不是 {v!r}</translation>
    </message>
    <message>
        <source>unknown vendor field {v!r} (known: {known})</source>
        <translation>未知的供应商字段 {v!r}（可用：{known}）</translation>
    </message>
    <message>
        <source>{v} given twice</source>
        <translation>{v} 填写了两次</translation>
    </message>
    <message>
        <source>unit must be one of {units}, not {v!r}</source>
        <translation>计价单位必须是 {units} 之一，而不是 {v!r}</translation>
    </message>
    <message>
        <source>a price of 0 ({v!r}) is no offer; give the vendor&apos;s price or leave the value empty</source>
        <translation>价格为 0（{v!r}）不是报价；请填写供应商的价格，或将该值留空</translation>
    </message>
    <message>
        <source>unknown question {v!r} (known: {known})</source>
        <translation>未知的问题 {v!r}（可用：{known}）</translation>
    </message>
    <message>
        <source>expected yes, no or unknown, not {v!r}</source>
        <translation>应为 yes、no 或 unknown（是/否/未知），而不是 {v!r}</translation>
    </message>
    <message>
        <source>expected a number, not {v!r}</source>
        <translation>应为数字，而不是 {v!r}</translation>
    </message>
    <message>
        <source>expected a finite number, not {v!r}</source>
        <translation>应为有限的数字，而不是 {v!r}</translation>
    </message>
    <message>
        <source>{why}</source>
        <translation>{why}</translation>
    </message>
    <message>
        <source>the workbook declares a DTD or entities (no spreadsheet needs them; refused)</source>
        <translation>工作簿声明了 DTD 或实体（表格从不需要它们；已拒绝）</translation>
    </message>
    <message>
        <source>the workbook holds too much markup (over {n} tags)</source>
        <translation>工作簿的标记过多（超过 {n} 个标签）</translation>
    </message>
</context>
<context>
    <name>Quotes</name>
    <message>
        <source>per card-hour</source>
        <translation>每卡时</translation>
    </message>
    <message>
        <source>spot, per card-hour</source>
        <translation>竞价，每卡时</translation>
    </message>
    <message>
        <source>per card-day</source>
        <translation>每卡每天</translation>
    </message>
    <message>
        <source>per card-week</source>
        <translation>每卡每周</translation>
    </message>
    <message>
        <source>per card-month</source>
        <translation>每卡每月</translation>
    </message>
    <message>
        <source>per server-day</source>
        <translation>每台整机每天</translation>
    </message>
    <message>
        <source>per server-week</source>
        <translation>每台整机每周</translation>
    </message>
    <message>
        <source>per server-month</source>
        <translation>每台整机每月</translation>
    </message>
    <message>
        <source>per server-year</source>
        <translation>每台整机每年</translation>
    </message>
    <message>
        <source>Failure SLA in hours, and a spare machine swapped in?</source>
        <translation>故障 SLA 几小时？是否换上备用机？</translation>
    </message>
    <message>
        <source>Data stays in the region; VPC or bare metal, isolated from other tenants?</source>
        <translation>数据不出地域；VPC 还是裸金属，与其他租户隔离？</translation>
    </message>
    <message>
        <source>IDC/ISP licence number given?</source>
        <translation>是否提供了 IDC/ISP 许可证编号？</translation>
    </message>
    <message>
        <source>Trial run with our own script done?</source>
        <translation>是否已用我们自己的脚本试跑？</translation>
    </message>
    <message>
        <source>Same-site upgrade path (e.g. 4 to 8 cards in the same machine)?</source>
        <translation>能否原地升级（例如同一台机器从 4 卡加到 8 卡）？</translation>
    </message>
    <message>
        <source>Topology (nvidia-smi topo -m), ibstat or kit result received?</source>
        <translation>是否收到拓扑（nvidia-smi topo -m）、ibstat 或测试套件结果？</translation>
    </message>
    <message>
        <source>not stated</source>
        <translation>未说明</translation>
    </message>
    <message>
        <source>Ethernet (TCP)</source>
        <translation>以太网（TCP）</translation>
    </message>
    <message>
        <source>longer than {n} characters</source>
        <translation>超过 {n} 个字符</translation>
    </message>
    <message>
        <source>unknown question {q} (known: {known})</source>
        <translation>未知的问题 {q}（可用：{known}）</translation>
    </message>
    <message>
        <source>One node: no network between nodes needed.</source>
        <translation>单节点：不需要节点间网络。</translation>
    </message>
    <message>
        <source>All {nodes} nodes in one NVLink domain (rack-scale NVLink): no network between nodes needed.</source>
        <translation>全部 {nodes} 个节点在同一个 NVLink 域内（机柜级 NVLink）：节点之间不需要网络。</translation>
    </message>
    <message>
        <source>Network between nodes not stated: ask.</source>
        <translation>节点间网络未说明：需询问。</translation>
    </message>
    <message>
        <source>Offers {offered} where the plan assumed {planned}.</source>
        <translation>提供的是 {offered}，而方案假设的是 {planned}。</translation>
    </message>
    <message>
        <source>{have} Gb/s per node offered, the plan needs {need} Gb/s.</source>
        <translation>每节点提供 {have} Gb/s，方案需要 {need} Gb/s。</translation>
    </message>
    <message>
        <source>NIC count and speed per node not stated: ask.</source>
        <translation>每节点网卡数量和速率未说明：需询问。</translation>
    </message>
    <message>
        <source>Minimum term {term} days is longer than the job ({days} days).</source>
        <translation>最短租期 {term} 天，比任务（{days} 天）还长。</translation>
    </message>
    <message>
        <source>Whole servers of {per} cards: {idle} cards paid for and not used by the plan.</source>
        <translation>按 {per} 卡整机出租：有 {idle} 张卡付了钱但方案用不到。</translation>
    </message>
    <message>
        <source>Storage price not stated: not counted.</source>
        <translation>存储价格未说明：未计入。</translation>
    </message>
    <message>
        <source>Egress price not stated: not counted.</source>
        <translation>出网流量价格未说明：未计入。</translation>
    </message>
    <message>
        <source>Whether setup hours are billed is not stated: counted as billed.</source>
        <translation>环境准备时间是否计费未说明：按计费计入。</translation>
    </message>
    <message>
        <source>Answered no: {question}</source>
        <translation>回答为否：{question}</translation>
    </message>
    <message>
        <source>{n} of {m} questions still to ask.</source>
        <translation>{m} 个问题中还有 {n} 个待问。</translation>
    </message>
    <message>
        <source>Prices in {cur} with no exchange rate stated: not converted.</source>
        <translation>价格以 {cur} 计，但没有注明汇率：未换算。</translation>
    </message>
    <message>
        <source>No offer for {gpu}.</source>
        <translation>没有 {gpu} 的报价。</translation>
    </message>
    <message>
        <source>Lowest total with the hidden costs counted.</source>
        <translation>计入隐性费用后总价最低。</translation>
    </message>
    <message>
        <source>{diff} ({pct}) more than {best}.</source>
        <translation>比 {best} 贵 {diff}（{pct}）。</translation>
    </message>
    <message>
        <source>Costs the price leaves out: {amount} ({pct} of the total).</source>
        <translation>价格之外的费用：{amount}（占总价 {pct}）。</translation>
    </message>
    <message>
        <source>Network does not match the plan.</source>
        <translation>网络与方案不符。</translation>
    </message>
    <message>
        <source>compute (the offer)</source>
        <translation>算力（报价本身）</translation>
    </message>
    <message>
        <source>storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>egress (download at the end)</source>
        <translation>出网流量（结束时下载）</translation>
    </message>
    <message>
        <source>setup and image rebuilding</source>
        <translation>环境准备与镜像重建</translation>
    </message>
    <message>
        <source>data migration</source>
        <translation>数据迁移</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>符合</translation>
    </message>
    <message>
        <source>check</source>
        <translation>需核实</translation>
    </message>
    <message>
        <source>does not match</source>
        <translation>不符</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>still to ask</source>
        <translation>待问</translation>
    </message>
    <message>
        <source>{h} card-hours</source>
        <translation>{h} 卡时</translation>
    </message>
    <message>
        <source>{s} server(s) × {p} period(s)</source>
        <translation>{s} 台整机 × {p} 个计费周期</translation>
    </message>
    <message>
        <source>{n} card(s) × {p} period(s)</source>
        <translation>{n} 张卡 × {p} 个计费周期</translation>
    </message>
    <message>
        <source>{price} {unit}; {billed}</source>
        <translation>{price} {unit}；{billed}</translation>
    </message>
    <message>
        <source>no package and card-hour price of this vendor to compare</source>
        <translation>该供应商没有可相互比较的套餐价和卡时价</translation>
    </message>
    <message>
        <source>{unit} beats card-hours above {h} hours per week</source>
        <translation>每周使用超过 {h} 小时时，{unit}比卡时计费便宜</translation>
    </message>
    <message>
        <source>Plan: {n} × {gpu}, {h} card-hours, {d} from start to finish, {tb} TB stored</source>
        <translation>方案：{n} × {gpu}，{h} 卡时，从开始到结束 {d}，存储 {tb} TB</translation>
    </message>
    <message>
        <source>billing: {b}</source>
        <translation>计费：{b}</translation>
    </message>
    <message>
        <source>total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>break-even: {t}</source>
        <translation>盈亏平衡：{t}</translation>
    </message>
    <message>
        <source>network: {status}: {m}</source>
        <translation>网络：{status}：{m}</translation>
    </message>
    <message>
        <source>still to ask:</source>
        <translation>待问：</translation>
    </message>
    <message>
        <source>risk: {m}</source>
        <translation>风险：{m}</translation>
    </message>
    <message>
        <source>why: {m}</source>
        <translation>理由：{m}</translation>
    </message>
    <message>
        <source>Ranking: {r}</source>
        <translation>排名：{r}</translation>
    </message>
    <message>
        <source>Project phases</source>
        <translation>项目各阶段</translation>
    </message>
    <message>
        <source>Per card-hour</source>
        <translation>折合每卡时</translation>
    </message>
    <message>
        <source>cheapest vendor per phase</source>
        <translation>每个阶段选最便宜的供应商</translation>
    </message>
    <message>
        <source>all phases at {v}</source>
        <translation>所有阶段都在 {v}</translation>
    </message>
    <message>
        <source>no offer for every phase</source>
        <translation>并非每个阶段都有报价</translation>
    </message>
    <message>
        <source>Quotes compared</source>
        <translation>报价对比</translation>
    </message>
    <message>
        <source>For the plan: {n} × {gpu}, {h} card-hours of compute, {d} from start to finish, about {tb} TB to store and {eg} TB to download; setup {s} per new instance.</source>
        <translation>按本方案：{n} × {gpu}，{h} 卡时算力，从开始到结束 {d}，约 {tb} TB 需要存储、{eg} TB 需要下载；每个新实例环境准备 {s}。</translation>
    </message>
    <message>
        <source>Vendor</source>
        <translation>供应商</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总价</translation>
    </message>
    <message>
        <source>Band</source>
        <translation>区间</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>理由</translation>
    </message>
    <message>
        <source>Billing</source>
        <translation>计费</translation>
    </message>
    <message>
        <source>Break-even</source>
        <translation>盈亏平衡</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>{status}: {message}</source>
        <translation>{status}：{message}</translation>
    </message>
    <message>
        <source>Still to ask</source>
        <translation>待问</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Risks</source>
        <translation>风险</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Cards</source>
        <translation>卡数</translation>
    </message>
    <message>
        <source>{n} cards, {per} per node, {nodes} node(s)</source>
        <translation>{n} 张卡，每节点 {per} 张，{nodes} 个节点</translation>
    </message>
    <message>
        <source>Interconnect between nodes</source>
        <translation>节点间互联</translation>
    </message>
    <message>
        <source>not needed (one node)</source>
        <translation>不需要（单节点）</translation>
    </message>
    <message>
        <source>{net}, {gbps} Gb/s per node</source>
        <translation>{net}，每节点 {gbps} Gb/s</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>about {tb} TB, readable from every node</source>
        <translation>约 {tb} TB，每个节点都能读取</translation>
    </message>
    <message>
        <source>Download at the end</source>
        <translation>结束时下载</translation>
    </message>
    <message>
        <source>about {tb} TB</source>
        <translation>约 {tb} TB</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>租期</translation>
    </message>
    <message>
        <source>{d} ({w} weeks)</source>
        <translation>{d}（{w} 周）</translation>
    </message>
    <message>
        <source>Hours per week</source>
        <translation>每周小时数</translation>
    </message>
    <message>
        <source>Card-hours</source>
        <translation>卡时</translation>
    </message>
    <message>
        <source>Request for quote</source>
        <translation>询价单（请求报价）</translation>
    </message>
    <message>
        <source>Please quote per card-hour, per card-month and per whole server per month where you offer them, with storage, egress, setup and minimum terms, and answer the questions below.</source>
        <translation>请按卡时、按卡月和按整机月租（凡贵司提供的）报价，注明存储、出网流量、环境准备费用和最短租期，并回答下列问题。</translation>
    </message>
    <message>
        <source>Requirements</source>
        <translation>需求</translation>
    </message>
    <message>
        <source>Prices to state</source>
        <translation>请注明的价格</translation>
    </message>
    <message>
        <source>price and unit (card-hour, card-month, whole server per month), minimum term</source>
        <translation>价格与计价单位（卡时、卡月、整机月租），最短租期</translation>
    </message>
    <message>
        <source>setup and image building: hours, and whether they are billed</source>
        <translation>环境准备与镜像构建：需要几小时，是否计费</translation>
    </message>
    <message>
        <source>network: InfiniBand or RoCE, speed and NICs per node; software pre-installed</source>
        <translation>网络：InfiniBand 还是 RoCE，每节点速率和网卡数；预装的软件</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>by the month (every month started)</source>
        <translation>按月（每个开始的月整月计费）</translation>
    </message>
    <message>
        <source>Real stock (machines in the rack), not “schedulable”?</source>
        <translation>是现货（机器已上架），而不是“可调度”？</translation>
    </message>
    <message>
        <source>by the day (prorated)</source>
        <translation>按天（折算）</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>供应商</translation>
    </message>
    <message>
        <source>Quote date</source>
        <translation>报价日期</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地区</translation>
    </message>
    <message>
        <source>Contact</source>
        <translation>联系人</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <source>Exchange rate (plan currency per unit)</source>
        <translation>汇率（每单位折合方案币种）</translation>
    </message>
    <message>
        <source>Exchange rate date</source>
        <translation>汇率日期</translation>
    </message>
    <message>
        <source>Storage per TB-month</source>
        <translation>存储（每 TB 每月）</translation>
    </message>
    <message>
        <source>Storage billed</source>
        <translation>存储计费方式</translation>
    </message>
    <message>
        <source>Egress per TB</source>
        <translation>出网流量（每 TB）</translation>
    </message>
    <message>
        <source>Setup hours per instance</source>
        <translation>每个实例的环境准备小时数</translation>
    </message>
    <message>
        <source>Setup hours billed</source>
        <translation>环境准备时间是否计费</translation>
    </message>
    <message>
        <source>Data migration hours</source>
        <translation>数据迁移小时数</translation>
    </message>
    <message>
        <source>Network between nodes</source>
        <translation>节点间网络</translation>
    </message>
    <message>
        <source>Gb/s per NIC</source>
        <translation>每张网卡 Gb/s</translation>
    </message>
    <message>
        <source>NICs per node</source>
        <translation>每节点网卡数</translation>
    </message>
    <message>
        <source>Pre-installed software</source>
        <translation>预装软件</translation>
    </message>
    <message>
        <source>Offer</source>
        <translation>报价</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>计价单位</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>单价</translation>
    </message>
    <message>
        <source>Cards/server</source>
        <translation>每台卡数</translation>
    </message>
    <message>
        <source>Min. term (days)</source>
        <translation>最短租期（天）</translation>
    </message>
    <message>
        <source>Cap at month</source>
        <translation>按月封顶</translation>
    </message>
    <message>
        <source>{a} {b}</source>
        <translation>{a} {b}</translation>
    </message>
    <message>
        <source>{field}: {why}</source>
        <translation>{field}：{why}</translation>
    </message>
    <message>
        <source>Its spot offer costs {lo} – {hi} for the compute, less than the offer counted, if the job can take reclaims.</source>
        <translation>若任务能承受被回收，其竞价报价的算力费用为 {lo} – {hi}，低于所计入的报价。</translation>
    </message>
    <message>
        <source>{n} month(s)</source>
        <translation>{n} 个月</translation>
    </message>
    <message>
        <source>{n} week(s)</source>
        <translation>{n} 周</translation>
    </message>
    <message>
        <source>{n} day(s)</source>
        <translation>{n} 天</translation>
    </message>
    <message>
        <source>{price} {unit}</source>
        <translation>{price} {unit}</translation>
    </message>
    <message>
        <source>{s} server(s)</source>
        <translation>{s} 台整机</translation>
    </message>
    <message>
        <source>{n} card(s)</source>
        <translation>{n} 张卡</translation>
    </message>
    <message>
        <source>{combination}: {prices}; {who}</source>
        <translation>{combination}：{prices}；{who}</translation>
    </message>
    <message>
        <source>{price} per card-hour of the plan&apos;s compute ({total} ÷ {h} card-hours)</source>
        <translation>折合方案算力每卡时 {price}（{total} ÷ {h} 卡时）</translation>
    </message>
    <message>
        <source>card-hours: the package never wins for this card count (a week has 168 hours)</source>
        <translation>按卡时：此卡数下套餐永远不划算（一周只有 168 小时）</translation>
    </message>
    <message>
        <source>the package, for every period it is held</source>
        <translation>套餐（按租用的每个整周期计费）</translation>
    </message>
    <message>
        <source>card-hours: the job&apos;s {days} do not fill the {billed} the package is paid for</source>
        <translation>按卡时：任务的 {days} 填不满套餐须付费的 {billed}</translation>
    </message>
    <message>
        <source>card-hours</source>
        <translation>按卡时</translation>
    </message>
    <message>
        <source>Whole machine vs card-hours (planning guide: about {guide} hours a week for several weeks favours the whole machine): at these quotes {package} {unit} ({pv}) costs as much as {hourly} per card-hour ({hv}) at {be} hours a week for the plan&apos;s {n} card(s); the plan runs {plan} hours a week: {verdict}.</source>
        <translation>整机与卡时（选型指南：连续数周每周使用约 {guide} 小时以上宜租整机）：按这些报价，{package}{unit}（{pv}）与每卡时 {hourly}（{hv}）在方案的 {n} 张卡每周使用 {be} 小时时花费相同；方案每周运行 {plan} 小时：{verdict}。</translation>
    </message>
    <message>
        <source>effective: {t}</source>
        <translation>折算：{t}</translation>
    </message>
    <message>
        <source>({n} NICs × {g} Gb/s, dedicated to this job)</source>
        <translation>（{n} 块网卡 × {g} Gb/s，本任务独享）</translation>
    </message>
    <message>
        <source>not needed (one card)</source>
        <translation>不需要（单卡）</translation>
    </message>
    <message>
        <source>{link}; tensor parallelism over {tp} cards: send nvidia-smi topo -m showing NVLink (NV#) between them, not PCIe</source>
        <translation>{link}；张量并行跨 {tp} 张卡：请提供 nvidia-smi topo -m 输出，卡间须为 NVLink（NV#），而非 PCIe</translation>
    </message>
    <message>
        <source>{link}; send nvidia-smi topo -m</source>
        <translation>{link}；请提供 nvidia-smi topo -m 输出</translation>
    </message>
    <message>
        <source>at least {gib} GiB (what CPU offload keeps in host memory)</source>
        <translation>至少 {gib} GiB（CPU 卸载存放在主机内存中的数据）</translation>
    </message>
    <message>
        <source>state it (GiB per server)</source>
        <translation>请注明（每台服务器 GiB）</translation>
    </message>
    <message>
        <source>not needed (one NVLink domain)</source>
        <translation>不需要（同一 NVLink 域）</translation>
    </message>
    <message>
        <source>Link inside a server</source>
        <translation>服务器内 GPU 互联</translation>
    </message>
    <message>
        <source>Host RAM per server</source>
        <translation>每台服务器主机内存</translation>
    </message>
    <message>
        <source>storage per TB per month, billed by the month or by the day; egress per TB</source>
        <translation>存储每 TB 每月价格，按月还是按天计费；出网流量每 TB 价格</translation>
    </message>
    <message>
        <source>Spot capacity: the job can be interrupted at any time; checkpoint often and count restarts (counted in the band).</source>
        <translation>竞价（抢占式）资源：任务随时可能被中断；请勤存检查点并计入重启（已计入区间）。</translation>
    </message>
    <message>
        <source>{unit} never beats card-hours for {n} card(s): it would take {h} hours per week (a week has 168)</source>
        <translation>对 {n} 张卡而言，{unit}永远不比卡时计费便宜：需要每周 {h} 小时（一周只有 168 小时）</translation>
    </message>
    <message>
        <source>{lo} – {hi}: no reclaim – {n} reclaim(s) (one per node per day of running, each losing the work since the last checkpoint and a fresh setup)</source>
        <translation>{lo} – {hi}：从不被回收 – 被回收 {n} 次（每节点每运行一天一次，每次损失上个检查点之后的工作并重新准备环境）</translation>
    </message>
    <message>
        <source>spot: {t}</source>
        <translation>竞价：{t}</translation>
    </message>
    <message>
        <source>Spot (interruptible)</source>
        <translation>竞价（可被中断）</translation>
    </message>
    <message>
        <source>move {a} → {b}: egress</source>
        <translation>从 {a} 迁到 {b}：出网流量</translation>
    </message>
    <message>
        <source>Project phases: one vendor or the cheapest per phase</source>
        <translation>项目各阶段：一家供应商，还是每个阶段选最便宜的</translation>
    </message>
    <message>
        <source>Each GPU phase compared on its own; moving between vendors adds the egress of the project&apos;s data at the vendor left.</source>
        <translation>每个 GPU 阶段单独比较；在供应商之间迁移时，按迁出供应商的出网价格计入项目数据的出网费用。</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Networked servers (multi-node)</source>
        <translation>服务器组网（多机）</translation>
    </message>
    <message>
        <source>The offer billed is for networked servers.</source>
        <translation>所计费的报价是组网的服务器。</translation>
    </message>
    <message>
        <source>The offer billed is for single machines: no network between the plan&apos;s {nodes} nodes.</source>
        <translation>所计费的报价是单台机器：方案的 {nodes} 个节点之间没有网络。</translation>
    </message>
    <message>
        <source>(band {range})</source>
        <translation>（区间 {range}）</translation>
    </message>
</context>
<context>
    <name>QuotesPage</name>
    <message>
        <source>Vendor quotes</source>
        <translation>供应商报价</translation>
    </message>
    <message>
        <source>9 · Vendor quotes</source>
        <translation>9 · 供应商报价</translation>
    </message>
    <message>
        <source>Enter each vendor&apos;s quote (or import their sheet), answer the hard questions as they reply, and compare the totals for this plan with the costs quotes leave out: storage, egress, setup and migration.</source>
        <translation>录入每个供应商的报价（或导入其报价单），随对方回复填写硬性问题的答案，并按本方案比较总价，包括报价里没写的费用：存储、出网流量、环境准备和数据迁移。</translation>
    </message>
    <message>
        <source>Vendor:</source>
        <translation>供应商：</translation>
    </message>
    <message>
        <source>Add vendor</source>
        <translation>添加供应商</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Import sheet…</source>
        <translation>导入报价单…</translation>
    </message>
    <message>
        <source>Export sheet…</source>
        <translation>导出报价单…</translation>
    </message>
    <message>
        <source>Blank template…</source>
        <translation>空白模板…</translation>
    </message>
    <message>
        <source>Add offer</source>
        <translation>添加报价行</translation>
    </message>
    <message>
        <source>Terms</source>
        <translation>条款</translation>
    </message>
    <message>
        <source>Offers (one line per price)</source>
        <translation>报价（一个价格一行）</translation>
    </message>
    <message>
        <source>Quote sheet</source>
        <translation>报价单</translation>
    </message>
    <message>
        <source>Hard questions</source>
        <translation>硬性问题</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>计价单位</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Cards/server</source>
        <translation>每台卡数</translation>
    </message>
    <message>
        <source>Min. term (days)</source>
        <translation>最短租期（天）</translation>
    </message>
    <message>
        <source>Cap at month</source>
        <translation>按月封顶</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>mainland China</source>
        <translation>中国大陆</translation>
    </message>
    <message>
        <source>worldwide</source>
        <translation>全球</translation>
    </message>
    <message>
        <source>New vendor</source>
        <translation>新供应商</translation>
    </message>
    <message>
        <source>Import quote sheet</source>
        <translation>导入报价单</translation>
    </message>
    <message>
        <source>Quote sheets (*.xlsx *.csv)</source>
        <translation>报价单 (*.xlsx *.csv)</translation>
    </message>
    <message>
        <source>Export quote sheet</source>
        <translation>导出报价单</translation>
    </message>
    <message>
        <source>Blank quote sheet</source>
        <translation>空白报价单</translation>
    </message>
    <message>
        <source>Add a vendor&apos;s quote to compare it with this plan.</source>
        <translation>添加供应商报价，与本方案比较。</translation>
    </message>
    <message>
        <source>{name}: {why}</source>
        <translation>{name}：{why}</translation>
    </message>
    <message>
        <source>No vendor yet. Click “Add vendor” to type a vendor&apos;s quote, or “Import sheet…” to read a quote sheet; “Blank template…” writes one to send to the vendors.</source>
        <translation>还没有供应商。点“添加供应商”录入一家供应商的报价，或点“导入报价单…”读取报价单；“空白模板…”会生成一份可发给供应商填写的模板。</translation>
    </message>
</context>
<context>
    <name>RecomputeModuleChecks</name>
    <message>
        <source>attention core (Megatron&apos;s default)</source>
        <translation>注意力核心（Megatron 的默认值）</translation>
    </message>
    <message>
        <source>attention core</source>
        <translation>注意力核心</translation>
    </message>
    <message>
        <source>norms</source>
        <translation>归一化层</translation>
    </message>
    <message>
        <source>expert activation</source>
        <translation>专家激活函数</translation>
    </message>
    <message>
        <source>MLA up projections</source>
        <translation>MLA 上投影</translation>
    </message>
    <message>
        <source>dense MLP</source>
        <translation>稠密 MLP</translation>
    </message>
    <message>
        <source>MoE layer</source>
        <translation>MoE 层</translation>
    </message>
    <message>
        <source>shared experts</source>
        <translation>共享专家</translation>
    </message>
</context>
<context>
    <name>RecoveryDialog</name>
    <message>
        <source>Recover unsaved work</source>
        <translation>恢复未保存的工作</translation>
    </message>
    <message>
        <source>GPU Planner did not close cleanly. These plans were autosaved and never saved to a file (newest first). Each is kept until you recover or discard it.</source>
        <translation>GPU Planner 上次未正常关闭。下列方案已自动保存，但从未保存到文件（最新的在前）。每一项都会一直保留，直到你恢复或丢弃它。</translation>
    </message>
    <message>
        <source>&amp;Recover</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Discard…</source>
        <translation>丢弃(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Later</source>
        <translation>稍后(&amp;L)</translation>
    </message>
    <message>
        <source>Unreadable autosave from {0}
{1}</source>
        <translation>无法读取的自动保存（{0}）
{1}</translation>
    </message>
    <message>
        <source>Untitled plan</source>
        <translation>未命名方案</translation>
    </message>
    <message>
        <source>never saved to a file</source>
        <translation>从未保存到文件</translation>
    </message>
    <message>
        <source>custom model</source>
        <translation>自定义模型</translation>
    </message>
    <message>
        <source>{title} — autosaved {when}
{where} · {model}, {method}, {n} × {gpu}</source>
        <translation>{title} — 自动保存于 {when}
{where} · {model}，{method}，{n} × {gpu}</translation>
    </message>
    <message>
        <source>Discard autosave</source>
        <translation>丢弃自动保存</translation>
    </message>
    <message>
        <source>Delete the autosave of “{0}” from {1}? Its unsaved changes will be lost.</source>
        <translation>删除“{0}”在 {1} 的自动保存吗？其中未保存的修改将会丢失。</translation>
    </message>
</context>
<context>
    <name>Report</name>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>GiB per GPU</source>
        <translation>单卡 GiB</translation>
    </message>
    <message>
        <source>{d} d</source>
        <translation>{d} 天</translation>
    </message>
    <message>
        <source>deadline {d} d</source>
        <translation>截止时间 {d} 天</translation>
    </message>
    <message>
        <source>GPUs ({gpu})</source>
        <translation>GPU 数（{gpu}）</translation>
    </message>
    <message>
        <source>training days</source>
        <translation>训练天数</translation>
    </message>
    <message>
        <source>estimated</source>
        <translation>估算值</translation>
    </message>
    <message>
        <source>ideal linear scaling</source>
        <translation>理想线性扩展</translation>
    </message>
    <message>
        <source>total cost ({cur})</source>
        <translation>总成本（{cur}）</translation>
    </message>
    <message>
        <source>chosen plan</source>
        <translation>所选方案</translation>
    </message>
    <message>
        <source>other GPU counts / plans</source>
        <translation>其他 GPU 数 / 方案</translation>
    </message>
    <message>
        <source>deadline</source>
        <translation>截止时间</translation>
    </message>
    <message>
        <source>Parameter counts: module by module as the reference implementations build them (Hugging Face transformers, Megatron-LM).</source>
        <translation>参数量：按参考实现（Hugging Face transformers、Megatron-LM）的构建方式逐模块统计。</translation>
    </message>
    <message>
        <source>Model states per GPU: ZeRO (Rajbhandari et al. 2020, arXiv:1910.02054) Table 1; activations: Korthikanti et al. 2022 (arXiv:2205.05198).</source>
        <translation>单卡模型状态：ZeRO（Rajbhandari 等，2020，arXiv:1910.02054）表 1；激活值：Korthikanti 等，2022（arXiv:2205.05198）。</translation>
    </message>
    <message>
        <source>Training FLOPs: 6·N per token plus attention (Kaplan et al. 2020, arXiv:2001.08361; Narayanan et al. 2021, arXiv:2104.04473).</source>
        <translation>训练 FLOPs：每 token 6·N 加上注意力部分（Kaplan 等，2020，arXiv:2001.08361；Narayanan 等，2021，arXiv:2104.04473）。</translation>
    </message>
    <message>
        <source>Checkpoint interval and lost work: Young 1974 (CACM 17(9)); interruption rate from Llama 3 (arXiv:2407.21783) §3.3.4.</source>
        <translation>检查点间隔与损失的工作量：Young 1974（CACM 17(9)）；中断率取自 Llama 3（arXiv:2407.21783）§3.3.4。</translation>
    </message>
    <message>
        <source>Inside each node: {link} between all {n} GPUs (tensor/expert parallelism runs inside the node); ask for the nvidia-smi topo -m output and check NV# links, not PHB/SYS.</source>
        <translation>每个节点内：全部 {n} 张 GPU 之间为 {link}（张量/专家并行在节点内运行）；请索取 nvidia-smi topo -m 的输出，确认是 NV# 链路，而不是 PHB/SYS。</translation>
    </message>
    <message>
        <source>Inside each node: {link} is enough for data parallelism; GPUs under one CPU socket (PIX/PXB, not SYS) all-reduce faster.</source>
        <translation>每个节点内：{link} 足以支撑数据并行；同一 CPU 插槽下的 GPU（PIX/PXB，而不是 SYS）all-reduce 更快。</translation>
    </message>
    <message>
        <source>Between nodes: InfiniBand or RoCE, dedicated to this job, all {nodes} nodes under one switch tier; ask for the NIC count and speed per node.</source>
        <translation>节点之间：InfiniBand 或 RoCE，专供此任务使用，全部 {nodes} 个节点位于同一交换层级下；请询问每节点的网卡数量和速率。</translation>
    </message>
    <message>
        <source>One resumable checkpoint is about {ckpt} (weights and optimizer states); keep at least the last three, written in parallel from every node, with snapshots or a copy off the machines.</source>
        <translation>一个可断点续训的检查点约 {ckpt}（权重和优化器状态）；至少保留最近三个，由各节点并行写入，并做快照或在机器之外另存一份。</translation>
    </message>
    <message>
        <source>Tokenised training data: about {data}; it must be readable from every node.</source>
        <translation>分词后的训练数据：约 {data}；每个节点都必须能读取。</translation>
    </message>
    <message>
        <source>Model weights in 16 bit: {w}; the final model and checkpoints must be downloadable at the end.</source>
        <translation>16 bit 模型权重：{w}；训练结束时最终模型和检查点必须可以下载。</translation>
    </message>
    <message>
        <source>assumed (set in the scenario)</source>
        <translation>假设值（在场景中设定）</translation>
    </message>
    <message>
        <source>measured (benchmark in the plan)</source>
        <translation>实测值（方案中的基准测试）</translation>
    </message>
    <message>
        <source>MFU (model FLOPs utilisation)</source>
        <translation>MFU（模型 FLOPs 利用率）</translation>
    </message>
    <message>
        <source>Rental price per card-hour, {gpu}</source>
        <translation>{gpu} 每卡时租用价格</translation>
    </message>
    <message>
        <source>Exchange rate</source>
        <translation>汇率</translation>
    </message>
    <message>
        <source>Over the budget of {b}.</source>
        <translation>超出 {b} 的预算。</translation>
    </message>
    <message>
        <source>reference model</source>
        <translation>参考模型</translation>
    </message>
    <message>
        <source>reward model</source>
        <translation>奖励模型</translation>
    </message>
    <message>
        <source>critic</source>
        <translation>评论家模型</translation>
    </message>
    <message>
        <source>vLLM weights</source>
        <translation>vLLM 权重</translation>
    </message>
    <message>
        <source>rollout KV cache</source>
        <translation>采样 KV 缓存</translation>
    </message>
    <message>
        <source>card: {cap} GiB</source>
        <translation>显卡：{cap} GiB</translation>
    </message>
    <message>
        <source>{v} GiB used</source>
        <translation>已用 {v} GiB</translation>
    </message>
    <message>
        <source>{0} (converted at {1} CNY/USD)</source>
        <translation>{0}（按 {1} CNY/USD 换算）</translation>
    </message>
    <message>
        <source>Between nodes: {net}, at least {gbps} Gb/s per node, dedicated to this job (not shared with storage or other tenants), all {nodes} nodes under one switch tier.</source>
        <translation>节点之间：{net}，每节点至少 {gbps} Gb/s，专供此任务使用（不与存储或其他租户共享），全部 {nodes} 个节点位于同一交换层级下。</translation>
    </message>
    <message>
        <source>{g} GiB card</source>
        <translation>{g} GiB 显卡</translation>
    </message>
    <message>
        <source>least memory (best layout)</source>
        <translation>显存最少（最佳布局）</translation>
    </message>
    <message>
        <source>the plan&apos;s layout</source>
        <translation>本方案的布局</translation>
    </message>
    <message>
        <source>memory of a candidate card</source>
        <translation>候选显卡的显存</translation>
    </message>
    <message>
        <source>budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>{n} × {gpu}</source>
        <translation>{n} × {gpu}</translation>
    </message>
    <message>
        <source>{n} CPU cores</source>
        <translation>{n} 个 CPU 核</translation>
    </message>
    <message>
        <source>weeks from the start</source>
        <translation>自开始起的周数</translation>
    </message>
    <message>
        <source>Inside each node: {link} between all {n} GPUs, and this card has no NVLink, so the tensor/expert parallelism&apos;s traffic crosses PCIe: ask for the nvidia-smi topo -m output and check that the GPUs share PCIe switches (PIX/PXB, not SYS), and that nvidia-smi topo -p2p r shows OK between them (peer-to-peer on).</source>
        <translation>每个节点内：全部 {n} 张 GPU 之间为 {link}，此卡没有 NVLink，张量/专家并行的流量走 PCIe：请索取 nvidia-smi topo -m 的输出，确认这些 GPU 在同一组 PCIe 交换芯片下（PIX/PXB，而不是 SYS），并用 nvidia-smi topo -p2p r 确认它们之间的点对点访问已开启。</translation>
    </message>
    <message>
        <source>Host RAM: at least {need} GiB of CPU memory per server (CPU offload keeps the optimizer states there, with pinned buffers); a server with less cannot run this plan.</source>
        <translation>主机内存：每台服务器至少 {need} GiB CPU 内存（CPU 卸载把优化器状态和锁页缓冲放在那里）；少于此数的服务器跑不了此方案。</translation>
    </message>
    <message>
        <source>{span} for {cost}; the chosen plan does not fit in GPU memory.</source>
        <translation>{span}，{cost}；所选方案放不下 GPU 显存。</translation>
    </message>
    <message>
        <source>{span} for {cost}, against {cspan} for {ccost} with the chosen plan.</source>
        <translation>{span}，{cost}；所选方案为 {cspan}，{ccost}。</translation>
    </message>
    <message>
        <source>training hours</source>
        <translation>训练小时数</translation>
    </message>
    <message>
        <source>{d} h</source>
        <translation>{d} 小时</translation>
    </message>
    <message>
        <source>Build: {part}</source>
        <translation>自建：{part}</translation>
    </message>
    <message>
        <source>Build, total</source>
        <translation>自建合计</translation>
    </message>
    <message>
        <source>Not counted (no figure entered): {0}</source>
        <translation>未计入（未填写数值）：{0}</translation>
    </message>
    <message>
        <source>AdamW 8-bit</source>
        <translation>AdamW 8-bit</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>selective (attention)</source>
        <translation>选择性（注意力）</translation>
    </message>
    <message>
        <source>full (every layer)</source>
        <translation>完全（每一层）</translation>
    </message>
    <message>
        <source>research (start/stop sessions)</source>
        <translation>研究（频繁启停）</translation>
    </message>
    <message>
        <source>stable (continuous runs)</source>
        <translation>稳定（连续运行）</translation>
    </message>
    <message>
        <source>burst (short, large runs)</source>
        <translation>冲刺（短时大规模运行）</translation>
    </message>
    <message>
        <source>optimizer offload</source>
        <translation>优化器卸载</translation>
    </message>
    <message>
        <source>micro-batch {mb} × {ga} accumulation</source>
        <translation>微批次 {mb} × 累积 {ga}</translation>
    </message>
    <message>
        <source>pipeline: {m} micro-batches of {n} per step</source>
        <translation>流水线：每步 {m} 个微批次，每个 {n} 条序列</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Prepared by</source>
        <translation>编制人</translation>
    </message>
    <message>
        <source>GPU Planner version</source>
        <translation>GPU Planner 版本</translation>
    </message>
    <message>
        <source>Plan file</source>
        <translation>方案文件</translation>
    </message>
    <message>
        <source>Training plan and GPU rental requirements</source>
        <translation>训练方案与 GPU 租用需求</translation>
    </message>
    <message>
        <source>(The notes are cut here: {n} more characters are in the plan file.)</source>
        <translation>（备注在此截断：另有 {n} 个字符保存在方案文件中。）</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>{layers} layers, hidden {hidden}, {heads} heads ({kv} KV, {att}), {mlp} MLP {ffn}, vocabulary {vocab}</source>
        <translation>{layers} 层，隐藏维度 {hidden}，{heads} 个注意力头（{kv} 个 KV，{att}），{mlp} MLP {ffn}，词表 {vocab}</translation>
    </message>
    <message>
        <source>MoE: {e} experts, {k} active per token</source>
        <translation>MoE：{e} 个专家，每 token 激活 {k} 个</translation>
    </message>
    <message>
        <source>{method}, {prec}, {opt}, {fw}</source>
        <translation>{method}，{prec}，{opt}，{fw}</translation>
    </message>
    <message>
        <source>rank {r}</source>
        <translation>秩 {r}</translation>
    </message>
    <message>
        <source>sequence {s}, global batch {g} sequence(s), {rc}</source>
        <translation>序列长度 {s}，全局批次 {g} 条序列，{rc}</translation>
    </message>
    <message>
        <source>{total} total, {active} active per token, {train} trained</source>
        <translation>总计 {total}，每 token 激活 {active}，训练 {train}</translation>
    </message>
    <message>
        <source>{d} days</source>
        <translation>{d} 天</translation>
    </message>
    <message>
        <source>none set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>{h} hours per week, {phase}</source>
        <translation>每周 {h} 小时，{phase}</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Scale tier</source>
        <translation>规模档位</translation>
    </message>
    <message>
        <source>~{tier}</source>
        <translation>~{tier}</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批次</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>{tokens} tokens</source>
        <translation>{tokens} token</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>算力需求</translation>
    </message>
    <message>
        <source>Deadline</source>
        <translation>截止时间</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Work pattern</source>
        <translation>使用模式</translation>
    </message>
    <message>
        <source>Goal</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>cheapest</source>
        <translation>最便宜</translation>
    </message>
    <message>
        <source>fastest</source>
        <translation>最快</translation>
    </message>
    <message>
        <source>{c} in calendar time with setup, checkpoints, interruptions and your hours per week; {d} of compute around the clock ({h} card-hours)</source>
        <translation>日历时间 {c}（含环境准备、检查点、中断和你每周的工作小时数）；全天候算力 {d}（{h} 卡时）</translation>
    </message>
    <message>
        <source>Serving plan and GPU rental requirements</source>
        <translation>推理服务方案与 GPU 租用需求</translation>
    </message>
    <message>
        <source>best value</source>
        <translation>性价比最高</translation>
    </message>
    <message>
        <source>The task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Other (CUDA context, buffers)</source>
        <translation>其他（CUDA 上下文、缓冲区）</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Card memory</source>
        <translation>显卡容量</translation>
    </message>
    <message>
        <source>The recommendation</source>
        <translation>推荐方案</translation>
    </message>
    <message>
        <source>Rent {n} × {gpu} ({nodes} node(s) of {per}).</source>
        <translation>租用 {n} × {gpu}（{nodes} 个节点，每节点 {per} 张）。</translation>
    </message>
    <message>
        <source>Training takes about {d} in calendar time</source>
        <translation>训练约需日历时间 {d}</translation>
    </message>
    <message>
        <source>and costs about {c} ({mode}).</source>
        <translation>，费用约 {c}（{mode}）。</translation>
    </message>
    <message>
        <source>Likely range: {r}</source>
        <translation>可能范围：{r}</translation>
    </message>
    <message>
        <source>in node: {link}</source>
        <translation>节点内：{link}</translation>
    </message>
    <message>
        <source>{bw} GB/s per GPU</source>
        <translation>每卡 {bw} GB/s</translation>
    </message>
    <message>
        <source>between nodes: {net}</source>
        <translation>节点间：{net}</translation>
    </message>
    <message>
        <source>InfiniBand or RoCE</source>
        <translation>InfiniBand 或 RoCE</translation>
    </message>
    <message>
        <source>{bw} Gb/s per node</source>
        <translation>每节点 {bw} Gb/s</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPUs and nodes</source>
        <translation>GPU 与节点</translation>
    </message>
    <message>
        <source>Interconnect</source>
        <translation>互联</translation>
    </message>
    <message>
        <source>single GPU</source>
        <translation>单卡</translation>
    </message>
    <message>
        <source>Parallel layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>单卡显存</translation>
    </message>
    <message>
        <source>{m} GiB of {cap} GiB ({free} GiB over the card)</source>
        <translation>{m} GiB / {cap} GiB（超出显卡 {free} GiB）</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>训练时长</translation>
    </message>
    <message>
        <source>Step time, MFU</source>
        <translation>单步时间、MFU</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>No price: this layout does not fit in GPU memory, so it cannot be rented as it is.</source>
        <translation>不报价：此布局放不下 GPU 显存，不能按原样租用。</translation>
    </message>
    <message>
        <source>{part}, hidden under compute (not in the step)</source>
        <translation>{part}，与算力重叠（不计入步骤时间）</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>This layout does not fit in GPU memory.</source>
        <translation>此布局放不进显存。</translation>
    </message>
    <message>
        <source>Cost by rental mode</source>
        <translation>各租用方式的成本</translation>
    </message>
    <message>
        <source>recommended</source>
        <translation>推荐</translation>
    </message>
    <message>
        <source>Rental mode</source>
        <translation>租用方式</translation>
    </message>
    <message>
        <source>Total cost</source>
        <translation>总成本</translation>
    </message>
    <message>
        <source>No rental price for this card: enter a quote to see the cost.</source>
        <translation>这张卡没有租用价格：请输入报价以查看费用。</translation>
    </message>
    <message>
        <source>Rent or build</source>
        <translation>租用还是自建</translation>
    </message>
    <message>
        <source>Planning rules</source>
        <translation>规划规则</translation>
    </message>
    <message>
        <source>Alternatives considered</source>
        <translation>考虑过的其他方案</translation>
    </message>
    <message>
        <source>Fails the rules: {0}</source>
        <translation>未通过的规则：{0}</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Scaling: training time with more or fewer GPUs of the chosen type (same layout, more data-parallel copies), against ideal linear scaling.</source>
        <translation>扩展性：所选型号 GPU 增减时的训练时间（布局不变，数据并行副本数变化），与理想线性扩展对比。</translation>
    </message>
    <message>
        <source>training passes {m}</source>
        <translation>训练部分 {m}</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>Compared with the chosen plan</source>
        <translation>与所选方案相比</translation>
    </message>
    <message>
        <source>Kept free on top of the estimate</source>
        <translation>估算之外预留</translation>
    </message>
    <message>
        <source>Total with what is kept free</source>
        <translation>合计（含预留）</translation>
    </message>
    <message>
        <source>{m} GiB + {head} GiB kept free on top of the estimate = {need} of {cap} GiB</source>
        <translation>{m} GiB + 估算之外预留 {head} GiB = {need} / {cap} GiB</translation>
    </message>
    <message>
        <source>No other plan met the constraints.</source>
        <translation>没有其他方案满足约束条件。</translation>
    </message>
    <message>
        <source>Cards not ranked</source>
        <translation>未参与排序的显卡</translation>
    </message>
    <message>
        <source>Why it is not ranked</source>
        <translation>未参与排序的原因</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>未通过</translation>
    </message>
    <message>
        <source>allowed (rule switched off)</source>
        <translation>允许（规则已关闭）</translation>
    </message>
    <message>
        <source>not applicable</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Memory per GPU: the parts of each plan&apos;s memory, and the card&apos;s capacity (dashed).</source>
        <translation>单卡显存：各方案的显存构成，以及显卡容量（虚线）。</translation>
    </message>
    <message>
        <source>Memory per GPU against GPU count for this model and training method: the layout needing the least memory at each count, the plan&apos;s own layout, and the memory of each candidate card.</source>
        <translation>单卡显存随 GPU 数量的变化（当前模型和训练方法）：每个数量下显存最少的布局、本方案自己的布局，以及每种候选显卡的显存。</translation>
    </message>
    <message>
        <source>{g} GiB: {names}</source>
        <translation>{g} GiB：{names}</translation>
    </message>
    <message>
        <source>Cost against time: each point is a plan at its cheapest rental mode; the filled square is the chosen plan.</source>
        <translation>成本与时间：每个点是一个方案在其最便宜租用方式下的结果；实心方块是所选方案。</translation>
    </message>
    <message>
        <source>Requirements for the vendor</source>
        <translation>对供应商的要求</translation>
    </message>
    <message>
        <source>Vendor checklist</source>
        <translation>供应商核对清单</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>Price used for {gpu}: {src} ({date}){default}.</source>
        <translation>{gpu} 使用的价格：{src}（{date}）{default}。</translation>
    </message>
    <message>
        <source>a shipped default; replace it with your quote</source>
        <translation>为内置默认值；请替换为你的报价</translation>
    </message>
    <message>
        <source>Formulas</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>Estimates from GPU Planner {v}. Measure on the rented machines before committing (nvidia-smi topo -m, nccl-tests all_reduce_perf, a short training run).</source>
        <translation>以上为 GPU Planner {v} 的估算结果。签约前请在租用的机器上实测（nvidia-smi topo -m、nccl-tests all_reduce_perf、一次短时训练）。</translation>
    </message>
    <message>
        <source>TP {tp} × {r} replica(s), {b} users each, {tps} tokens/s per GPU ({p})</source>
        <translation>TP {tp} × {r} 个副本，每个 {b} 位用户，单卡 {tps} token/s（{p}）</translation>
    </message>
    <message>
        <source>Hours</source>
        <translation>小时数</translation>
    </message>
    <message>
        <source>Project: phases, timeline and growth</source>
        <translation>项目：阶段、时间线与增长</translation>
    </message>
    <message>
        <source>{nodes} node(s), {n} CPU cores</source>
        <translation>{nodes} 个节点，{n} 个 CPU 核</translation>
    </message>
    <message>
        <source>{price} per million tokens</source>
        <translation>每百万 token {price}</translation>
    </message>
    <message>
        <source>{gb} GB of text, {h} core-hours</source>
        <translation>{gb} GB 文本，{h} 核时</translation>
    </message>
    <message>
        <source>{model}, {tokens} tokens, {days} days</source>
        <translation>{model}，{tokens} token，{days} 天</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Weeks</source>
        <translation>周</translation>
    </message>
    <message>
        <source>h/week</source>
        <translation>小时/周</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>Rental</source>
        <translation>租用方式</translation>
    </message>
    <message>
        <source>Timeline: each phase by week with its GPUs or CPU cores and its cost.</source>
        <translation>时间线：按周显示各阶段的 GPU 或 CPU 核数及其费用。</translation>
    </message>
    <message>
        <source>By rental mode</source>
        <translation>按租用方式</translation>
    </message>
    <message>
        <source>Week by week</source>
        <translation>逐周</translation>
    </message>
    <message>
        <source>Week</source>
        <translation>周</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Rent, total</source>
        <translation>租用合计</translation>
    </message>
    <message>
        <source>{n} × {gpu} ({nodes} node(s) of {per}) does not fit: {need} GiB per GPU on a card of {cap} GiB. Do not rent it; let the search choose the GPUs and the layout, or add GPUs.</source>
        <translation>{n} × {gpu}（{nodes} 个节点，每节点 {per} 张）放不下：每张 GPU 需要 {need} GiB，显卡只有 {cap} GiB。请不要租用它；让搜索选择 GPU 和并行布局，或增加 GPU。</translation>
    </message>
    <message>
        <source>The range is the 10th to 90th percentile of the model&apos;s error on {n} published {family} training runs ({date}), widened where needed to hold the estimate itself: at least 80% of those runs took between its low and high end of what the model predicted. An untuned run, slow data loading or a different server can be slower still.</source>
        <translation>该范围取模型在 {n} 条已发表的 {family} 训练记录（{date}）上误差的第 10 到第 90 百分位，必要时扩展到包含估计值本身：这些记录中至少 80% 的实际用时落在模型预测值的这一区间内。未经调优的训练、数据加载缓慢或服务器不同，都可能更慢。</translation>
    </message>
    <message>
        <source>CPU cores</source>
        <translation>CPU 核</translation>
    </message>
    <message>
        <source>What if the work grows ({phase})</source>
        <translation>如果工作量增长（{phase}）</translation>
    </message>
    <message>
        <source>2× parameters</source>
        <translation>参数量 ×2</translation>
    </message>
    <message>
        <source>10× data</source>
        <translation>数据量 ×10</translation>
    </message>
    <message>
        <source>next GPU count</source>
        <translation>下一档 GPU 数</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>In place</source>
        <translation>原地升级</translation>
    </message>
    <message>
        <source>Layout changes</source>
        <translation>并行布局变化</translation>
    </message>
    <message>
        <source>per core-hour</source>
        <translation>按核时</translation>
    </message>
    <message>
        <source>nodes per month</source>
        <translation>按月租节点</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>{f} ({fpt} per token)</source>
        <translation>{f}（每 token {fpt}）</translation>
    </message>
    <message>
        <source>No checklist items.</source>
        <translation>没有核对项。</translation>
    </message>
    <message>
        <source>Assumptions and sources</source>
        <translation>假设与来源</translation>
    </message>
    <message>
        <source>Assumption</source>
        <translation>假设</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>取值</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Rent versus build: straight-line depreciation, electricity = power × PUE × tariff (our arithmetic; node power from NVIDIA&apos;s DGX H100 datasheet).</source>
        <translation>租用与自建对比：直线折旧，电费 = 功耗 × PUE × 电价（本工具的算术；节点功耗取自 NVIDIA DGX H100 数据手册）。</translation>
    </message>
    <message>
        <source>modelled: achievable share of dense peak per GPU generation (published runs: Megatron-LM README, torchtitan arXiv:2410.06511, llm-foundry benchmarks, Llama 3 arXiv:2407.21783) minus exposed communication</source>
        <translation>模型估算：各代 GPU 可达到的稠密峰值占比（已发表的训练：Megatron-LM README、torchtitan arXiv:2410.06511、llm-foundry 基准、Llama 3 arXiv:2407.21783）减去未被掩盖的通信</translation>
    </message>
    <message>
        <source>your plan</source>
        <translation>你的方案</translation>
    </message>
    <message>
        <source>built-in price table (gpuplanner/resources/prices.json)</source>
        <translation>内置价格表（gpuplanner/resources/prices.json）</translation>
    </message>
    <message>
        <source>purchase price per server</source>
        <translation>每台服务器采购价</translation>
    </message>
    <message>
        <source>server power</source>
        <translation>服务器功耗</translation>
    </message>
    <message>
        <source>electricity tariff</source>
        <translation>电价</translation>
    </message>
    <message>
        <source>rack / colocation</source>
        <translation>机柜/托管</translation>
    </message>
    <message>
        <source>operations staff</source>
        <translation>运维人员</translation>
    </message>
    <message>
        <source>spares</source>
        <translation>备件</translation>
    </message>
    <message>
        <source>Rental price per {n}-GPU server-month, {gpu}</source>
        <translation>{gpu} 每台 {n} 卡服务器每月租用价格</translation>
    </message>
    <message>
        <source>{range}.</source>
        <translation>{range}。</translation>
    </message>
    <message>
        <source>, {cost}</source>
        <translation>，{cost}</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>deadline {d} d, right of the chart: every plan meets it</source>
        <translation>截止时间 {d} 天，在图的右侧之外：每个方案都能满足</translation>
    </message>
    <message>
        <source>recompute {r}</source>
        <translation>{r}重计算</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Kept free per GPU</source>
        <translation>每卡预留显存</translation>
    </message>
    <message>
        <source>{n} GPU(s), {nodes} node(s) × {per}</source>
        <translation>{n} 张 GPU，{nodes} 个节点 × {per}</translation>
    </message>
    <message>
        <source>GPU: {gpu}, at least {m} GiB of memory per GPU (this plan needs {m} GiB including headroom); {n} GPU(s).</source>
        <translation>GPU：{gpu}，单卡显存至少 {m} GiB（此方案含余量需要 {m} GiB）；共 {n} 张 GPU。</translation>
    </message>
</context>
<context>
    <name>Rules</name>
    <message>
        <source>MFU grade</source>
        <translation>MFU 评级</translation>
    </message>
    <message>
        <source>consumer cards in one node</source>
        <translation>消费级显卡限单节点</translation>
    </message>
    <message>
        <source>even pipeline stages</source>
        <translation>流水线均匀分段</translation>
    </message>
    <message>
        <source>safe deadline and budget</source>
        <translation>稳妥满足截止时间和预算</translation>
    </message>
    <message>
        <source>networked multi-node price</source>
        <translation>多机价格来自组网报价</translation>
    </message>
    <message>
        <source>good</source>
        <translation>良好</translation>
    </message>
    <message>
        <source>fair</source>
        <translation>一般</translation>
    </message>
    <message>
        <source>poor</source>
        <translation>差</translation>
    </message>
    <message>
        <source>optimistic</source>
        <translation>偏乐观</translation>
    </message>
    <message>
        <source>Misses the deadline and the budget already at the estimate ({days} against {deadline_days}; {cost:,.0f} {cur} against {budget_cap:,.0f} {cur}).</source>
        <translation>按估计值就已错过截止时间并超出预算（{days}，截止 {deadline_days}；{cost:,.0f} {cur}，预算 {budget_cap:,.0f} {cur}）。</translation>
    </message>
    <message>
        <source>Misses the deadline already at the estimate ({days} against {deadline_days}), not only at the upper end of its band.</source>
        <translation>按估计值就已错过截止时间（{days}，截止 {deadline_days}），不只是按区间上限。</translation>
    </message>
    <message>
        <source>the best published run it borrows ({ceil:.0%}: {cls}, {src}, {date}; no run of its own class is published)</source>
        <translation>所借用的最佳公开记录（{ceil:.0%}：{cls}，{src}，{date}；本类没有公开的运行记录）</translation>
    </message>
    <message>
        <source>Not checked: this layout does not fit in GPU memory, so it cannot run.</source>
        <translation>不检查：此布局放不下 GPU 显存，无法运行。</translation>
    </message>
    <message>
        <source>the best published run of its class ({ceil:.0%}: {cls}, {src}, {date})</source>
        <translation>同类最佳公开记录（{ceil:.0%}：{cls}，{src}，{date}）</translation>
    </message>
    <message>
        <source>Estimated MFU {mfu:.0%}: good (40–55% is what a tuned framework reaches on mainstream GPUs).</source>
        <translation>估计 MFU {mfu:.0%}：良好（调优过的框架在主流 GPU 上可达 40–55%）。</translation>
    </message>
    <message>
        <source>Estimated MFU {mfu:.0%}: poor (below 30% something is wrong: interconnect, data loading or layout), so the cost per token goes up.</source>
        <translation>估计 MFU {mfu:.0%}：差（低于 30% 说明有问题：互联、数据加载或并行布局），每个 token 的成本会上升。</translation>
    </message>
    <message>
        <source>Estimated MFU {mfu:.0%}: optimistic (above 55% is rare in published runs); measure a short run before committing.</source>
        <translation>估计 MFU {mfu:.0%}：偏乐观（公开的训练记录很少超过 55%）；下单前先做一次短时实测。</translation>
    </message>
    <message>
        <source>Estimated MFU {mfu:.0%}: poor (below {poor:.0%}: the guide&apos;s 30% for mainstream GPUs, scaled to {whose}; something is wrong: interconnect, data loading or layout), so the cost per token goes up.</source>
        <translation>估计 MFU {mfu:.0%}：差（低于 {poor:.0%}：规划指南对主流 GPU 给出的 30%，按{whose}等比放大；说明有问题：互联、数据加载或并行布局），每个 token 的成本会上升。</translation>
    </message>
    <message>
        <source>{lo:.0%}–{hi:.0%}: the guide&apos;s 30–40% for mainstream GPUs, scaled to {whose}</source>
        <translation>{lo:.0%}–{hi:.0%}：规划指南对主流 GPU 给出的 30–40%，按{whose}等比放大</translation>
    </message>
    <message>
        <source>MFU unknown.</source>
        <translation>MFU 未知。</translation>
    </message>
    <message>
        <source>Estimated MFU {mfu:.0%}: poor for its class (below {poor:.0%}: the guide&apos;s 30% for mainstream GPUs, scaled to {whose}), but not from the interconnect: communication and pipeline bubble are {comm:.0%} of the step, the rest is compute-side work (the method&apos;s memory-bound kernels, extra passes, host launch time), which the time and cost already count; ranked by cost.</source>
        <translation>估计 MFU {mfu:.0%}：按其类别为差（低于 {poor:.0%}：规划指南对主流 GPU 给出的 30%，按{whose}等比放大），但不是互联造成的：通信和流水线气泡只占每步的 {comm:.0%}，其余是计算侧的工作（该方法的访存受限内核、额外的计算、主机端启动开销），时间和成本已计入；按成本排序。</translation>
    </message>
    <message>
        <source>Training passes only (rollout generation, memory-bound decoding, is left out, as in verl&apos;s actor MFU): {grade}</source>
        <translation>只计训练部分（采样生成是受显存带宽限制的解码，不计入，与 verl 统计策略模型更新的 MFU 相同）：{grade}</translation>
    </message>
    <message>
        <source>Any card class: not a dense model of ~70B or more in full training.</source>
        <translation>不限显卡档位：不是约 70B 及以上稠密模型的全量训练。</translation>
    </message>
    <message>
        <source>Not a consumer card without P2P.</source>
        <translation>不是不支持 P2P 的消费级显卡。</translation>
    </message>
    <message>
        <source>{gpu} has no P2P between cards: a layout that communicates every step (TP, PP, CP, EP or ZeRO-2/3) should stay in one node, and this one spans {nodes}.</source>
        <translation>{gpu} 卡间不支持 P2P：每步都要通信的布局（TP、PP、CP、EP 或 ZeRO-2/3）应留在单个节点内，而本方案跨 {nodes} 个节点。</translation>
    </message>
    <message>
        <source>{gpu} across {nodes} nodes with plain data parallelism: only one gradient all-reduce per step crosses the network.</source>
        <translation>{gpu} 以纯数据并行跨 {nodes} 个节点：每步只有一次梯度 all-reduce 经过网络。</translation>
    </message>
    <message>
        <source>{gpu} in one node.</source>
        <translation>{gpu} 在单个节点内。</translation>
    </message>
    <message>
        <source>No pipeline parallelism.</source>
        <translation>没有流水线并行。</translation>
    </message>
    <message>
        <source>{layers} layers do not divide into {pp} pipeline stages: the stages are uneven and the largest sets the pace.</source>
        <translation>{layers} 层不能均分为 {pp} 个流水线段：各段不均匀，最大的一段决定速度。</translation>
    </message>
    <message>
        <source>{layers} layers in {pp} pipeline stages of {per}.</source>
        <translation>{layers} 层分成 {pp} 个流水线段，每段 {per} 层。</translation>
    </message>
    <message>
        <source>MFU ceiling</source>
        <translation>MFU 上限</translation>
    </message>
    <message>
        <source>≥80 GB cards</source>
        <translation>≥80 GB 显卡</translation>
    </message>
    <message>
        <source>memory headroom</source>
        <translation>显存余量</translation>
    </message>
    <message>
        <source>no TP over PCIe</source>
        <translation>不经 PCIe 做 TP</translation>
    </message>
    <message>
        <source>No MFU ceiling applies (your own MFU or a measured run is used, or the rule is off).</source>
        <translation>不适用 MFU 上限（使用了你自己的 MFU 或实测运行，或规则已关闭）。</translation>
    </message>
    <message>
        <source>Modelled MFU {mfu:.1%} is above the best published {ceil:.1%} of its class ({cls}; {src}, {date}, {layout}): timed and costed at {ceil:.1%}.</source>
        <translation>模型 MFU {mfu:.1%} 高于同类最佳公开值 {ceil:.1%}（{cls}；{src}，{date}，{layout}）：按 {ceil:.1%} 计算时间和成本。</translation>
    </message>
    <message>
        <source>Modelled MFU {mfu:.0%} is within the best published {ceil:.0%} of its class ({cls}; {src}, {date}).</source>
        <translation>模型 MFU {mfu:.0%} 不高于同类最佳公开值 {ceil:.0%}（{cls}；{src}，{date}）。</translation>
    </message>
    <message>
        <source>No deadline or budget, or no validation band for this framework.</source>
        <translation>没有截止时间或预算，或此框架没有验证区间。</translation>
    </message>
    <message>
        <source>Card memory unknown.</source>
        <translation>显存大小未知。</translation>
    </message>
    <message>
        <source>No tensor parallelism.</source>
        <translation>没有张量并行。</translation>
    </message>
    <message>
        <source>TP {tp} inside the NVLink domain of {gpu}.</source>
        <translation>TP {tp} 位于 {gpu} 的 NVLink 域内。</translation>
    </message>
    <message>
        <source>TP {tp} over PCIe on {gpu}: four all-reduces per layer through the host bridge, none hidden (Transformer Engine&apos;s overlap needs NVLink peer memory); ranked after plans without it when a card with NVLink meets the deadline.</source>
        <translation>{gpu} 上经 PCIe 的 TP {tp}：每层四次 all-reduce 经过主机桥，无法隐藏（Transformer Engine 的通信重叠需要 NVLink 点对点显存）；当有 NVLink 卡满足截止时间时，排在不需要它的方案之后。</translation>
    </message>
    <message>
        <source>{gpu} has {mem:g} GB; full training of a {b} dense model wants cards with ≥80 GB.</source>
        <translation>{gpu} 只有 {mem:g} GB；全量训练 {b} 稠密模型需要 ≥80 GB 的卡。</translation>
    </message>
    <message>
        <source>{mem:g} GB cards: ≥80 GB, as full training of a {b} dense model needs.</source>
        <translation>{mem:g} GB 显卡：≥80 GB，符合全量训练 {b} 稠密模型的要求。</translation>
    </message>
    <message>
        <source>Estimated MFU {mfu:.0%}: fair ({band}); the interconnect or the layout leaves some compute unused.</source>
        <translation>估计 MFU {mfu:.0%}：一般（{band}）；互联或并行布局让一部分算力闲置。</translation>
    </message>
    <message>
        <source>30–40%</source>
        <translation>30–40%</translation>
    </message>
    <message>
        <source>Estimated MFU {mfu:.0%}: optimistic, above {whose}; measure a short run before committing.</source>
        <translation>估计 MFU {mfu:.0%}：偏乐观，高于{whose}；下单前先做一次短时实测。</translation>
    </message>
    <message>
        <source>Estimated MFU {mfu:.0%}: good ({lo:.0%}–{hi:.0%}: the guide&apos;s 40–55% for mainstream GPUs, scaled to {whose}).</source>
        <translation>估计 MFU {mfu:.0%}：良好（{lo:.0%}–{hi:.0%}：规划指南对主流 GPU 给出的 40–55%，按{whose}等比放大）。</translation>
    </message>
    <message>
        <source>Estimated MFU {mfu:.0%}: poor, but not from the interconnect: communication and pipeline bubble are {comm:.0%} of the step, the rest is compute-side work (the method&apos;s memory-bound kernels, extra passes, host launch time), which the time and cost already count; ranked by cost.</source>
        <translation>估计 MFU {mfu:.0%}：差，但不是互联造成的：通信和流水线气泡只占每步的 {comm:.0%}，其余是计算侧的工作（该方法的访存受限内核、额外的计算、主机端启动开销），时间和成本已计入；按成本排序。</translation>
    </message>
    <message>
        <source>Estimated MFU {mfu:.0%}: fair ({band}), not from the interconnect: communication and pipeline bubble are {comm:.0%} of the step, the rest is compute-side work (memory-bound kernels, the method&apos;s extra passes).</source>
        <translation>估计 MFU {mfu:.0%}：一般（{band}），但不是互联造成的：通信和流水线气泡只占每步的 {comm:.0%}，其余是计算侧的工作（访存受限的内核、该方法额外的计算）。</translation>
    </message>
    <message>
        <source>Estimated MFU {mfu:.0%}: good, near {whose}.</source>
        <translation>估计 MFU {mfu:.0%}：良好，接近{whose}。</translation>
    </message>
    <message>
        <source>Modelled hardware FLOPs utilisation {mfu:.1%} (recomputed FLOPs counted) is above {ceil:.1%}, the ceiling it borrows: no run of its own class is published, so it takes the lowest hardware FLOPs utilisation of the classes that have one ({cls}; {src}, {date}, {layout}); timed and costed at {ceil:.1%} hardware FLOPs utilisation.</source>
        <translation>模型估算硬件算力利用率 {mfu:.1%}（计入重计算的运算量）高于借用的上限 {ceil:.1%}：本类没有公开的运行记录，因此取有记录各类中最低的硬件算力利用率（{cls}；{src}，{date}，{layout}）；按硬件算力利用率 {ceil:.1%} 计算时间和成本。</translation>
    </message>
    <message>
        <source>Modelled hardware FLOPs utilisation {mfu:.0%} (recomputed FLOPs counted) is within {ceil:.0%}, the ceiling it borrows: no run of its own class is published, so it takes the lowest hardware FLOPs utilisation of the classes that have one ({cls}; {src}, {date}).</source>
        <translation>模型估算硬件算力利用率 {mfu:.0%}（计入重计算的运算量）未超过借用的上限 {ceil:.0%}：本类没有公开的运行记录，因此取有记录各类中最低的硬件算力利用率（{cls}；{src}，{date}）。</translation>
    </message>
    <message>
        <source>Modelled hardware FLOPs utilisation {mfu:.1%} (recomputed FLOPs counted, as the published run counts them) is above the best published {ceil:.1%} of its class ({cls}; {src}, {date}, {layout}): timed and costed at {ceil:.1%} hardware FLOPs utilisation.</source>
        <translation>模型硬件算力利用率 {mfu:.1%}（计入重计算的运算量，与公开运行的计法相同）高于同类最佳公开值 {ceil:.1%}（{cls}；{src}，{date}，{layout}）：按硬件算力利用率 {ceil:.1%} 计算时间和成本。</translation>
    </message>
    <message>
        <source>Modelled hardware FLOPs utilisation {mfu:.0%} (recomputed FLOPs counted, as the published run counts them) is within the best published {ceil:.0%} of its class ({cls}; {src}, {date}).</source>
        <translation>模型硬件算力利用率 {mfu:.0%}（计入重计算的运算量，与公开运行的计法相同）在同类最佳公开值 {ceil:.0%} 以内（{cls}；{src}，{date}）。</translation>
    </message>
    <message>
        <source>Modelled MFU {mfu:.1%} is above {ceil:.1%}, the ceiling it borrows: no run of its own class is published, so it takes the lowest of the classes that have one ({cls}; {src}, {date}, {layout}); timed and costed at {ceil:.1%}.</source>
        <translation>模型 MFU {mfu:.1%} 高于借用的上限 {ceil:.1%}：本类没有公开的运行记录，因此取有记录各类中最低的上限（{cls}；{src}，{date}，{layout}）；按 {ceil:.1%} 计算时间和成本。</translation>
    </message>
    <message>
        <source>Modelled MFU {mfu:.0%} is within {ceil:.0%}, the ceiling it borrows: no run of its own class is published, so it takes the lowest of the classes that have one ({cls}; {src}, {date}).</source>
        <translation>模型 MFU {mfu:.0%} 不高于借用的上限 {ceil:.0%}：本类没有公开的运行记录，因此取有记录各类中最低的上限（{cls}；{src}，{date}）。</translation>
    </message>
    <message>
        <source>At risk: meets the deadline and budget at the estimate, but not at the upper end of its band ({span}).</source>
        <translation>有风险：按估计值满足截止时间和预算，但按区间上限（{span}）不满足。</translation>
    </message>
    <message>
        <source>Meets the deadline and budget at the upper end of its band ({span}).</source>
        <translation>按区间上限（{span}）仍满足截止时间和预算。</translation>
    </message>
    <message>
        <source>Does not fit: it needs {over:.1%} more memory than the card has.</source>
        <translation>放不下：需要的显存比显卡多 {over:.1%}。</translation>
    </message>
    <message>
        <source>{nodes} nodes of {gpu} inside one NVLink domain of {domain} GPUs: they reach each other over its NVLink switches, not over a network between servers. Ask that they are rented in one NVLink domain (rack).</source>
        <translation>{gpu} 的 {nodes} 个节点位于同一个 {domain} 卡的 NVLink 域内：它们经该域的 NVLink 交换机互连，而不是经服务器之间的网络。请确认它们租在同一个 NVLink 域（机柜）内。</translation>
    </message>
    <message>
        <source>{ask} {ranked}</source>
        <translation>{ask}{ranked}</translation>
    </message>
    <message>
        <source>It ranks after the plans priced from quotes of the right kind (one node, or networked servers).</source>
        <translation>它排在按同类报价计价的方案（单节点，或组网服务器）之后。</translation>
    </message>
    <message>
        <source>No quote for {gpu} here rents {nodes} networked servers, so the {nodes} nodes are priced from {provider}, which rents single machines (its source says so): that price buys no network between them. Clusters are rented as whole servers with InfiniBand or RoCE, often by the month or for a minimum term, and can cost more. {ranked} {ask}</source>
        <translation>此处没有 {gpu} 出租 {nodes} 台组网服务器的报价，所以这 {nodes} 个节点按 {provider} 的价格计价，而该来源出租的是单台机器（来源如此说明）：这个价格不含机器之间的网络。集群是按带 InfiniBand 或 RoCE 的整机出租的，常按月或有最短租期，价格可能更高。{ranked}{ask}</translation>
    </message>
    <message>
        <source>No quote for {gpu} here rents {nodes} networked servers, so the {nodes} nodes are priced from {provider}, whose quote does not say that its servers are networked. Clusters are rented as whole servers with InfiniBand or RoCE, often by the month or for a minimum term, and can cost more. {ranked} {ask}</source>
        <translation>此处没有 {gpu} 出租 {nodes} 台组网服务器的报价，所以这 {nodes} 个节点按 {provider} 的价格计价，而其报价未说明服务器之间组网。集群是按带 InfiniBand 或 RoCE 的整机出租的，常按月或有最短租期，价格可能更高。{ranked}{ask}</translation>
    </message>
    <message>
        <source>TP {tp} over PCIe on {gpu}: no card with NVLink meets the deadline and budget at the upper end of its band, so it is ranked on its own time and cost (timed over PCIe, none of it hidden).</source>
        <translation>{gpu} 上经 PCIe 的 TP {tp}：没有 NVLink 卡在其区间上限处满足截止时间和预算，因此按它自己的时间和成本排名（按 PCIe 计时，通信无法隐藏）。</translation>
    </message>
    <message>
        <source>{nodes} nodes priced from {provider}, a networked offer (its source says so). Still ask that the bandwidth is dedicated (独享) and the nodes are in one data centre.</source>
        <translation>{nodes} 个节点按 {provider} 的组网报价计价（来源如此说明）。仍请确认带宽独享、节点在同一机房。</translation>
    </message>
    <message>
        <source>{nodes} nodes priced from {provider}, which rents single machines (its source says so): that price buys no network between them. {ask}</source>
        <translation>{nodes} 个节点按 {provider} 的价格计价，而该来源出租的是单台机器（来源如此说明）：这个价格不含机器之间的网络。{ask}</translation>
    </message>
    <message>
        <source>Ask the vendor for InfiniBand or RoCE between the {nodes} nodes, bandwidth dedicated to you (独享, not shared with other tenants) and every node in the same data centre, and for the price of that.</source>
        <translation>请向供应商确认：{nodes} 个节点之间为 InfiniBand 或 RoCE 网络、带宽独享（不与其他租户共享）、所有节点在同一机房，并按此报价。</translation>
    </message>
    <message>
        <source>No rental price: no quote to check.</source>
        <translation>没有租用价格：无报价可查。</translation>
    </message>
    <message>
        <source>One node: no network between nodes to rent.</source>
        <translation>单节点：无需租用节点间网络。</translation>
    </message>
    <message>
        <source>{nodes} nodes priced from {provider}, whose quote does not say that its servers are networked. {ask}</source>
        <translation>{nodes} 个节点按 {provider} 的价格计价，其报价未说明服务器之间组网。{ask}</translation>
    </message>
    <message>
        <source>Over the budget already at the estimate ({cost:,.0f} {cur} against {budget_cap:,.0f} {cur}), not only at the upper end of its band.</source>
        <translation>按估计值就已超出预算（{cost:,.0f} {cur}，预算 {budget_cap:,.0f} {cur}），不只是按区间上限。</translation>
    </message>
    <message>
        <source>prices of one kind</source>
        <translation>同一类价格</translation>
    </message>
    <message>
        <source>Every plan is billed on {mode}, as set in the scenario (constraints.rental_mode).</source>
        <translation>按场景设定（constraints.rental_mode），每个方案都以{mode}计费。</translation>
    </message>
    <message>
        <source>Billed on {mode}, a price without interruptions: every plan is compared on such prices.</source>
        <translation>以{mode}计费，这是不会中断的价格：每个方案都按此类价格比较。</translation>
    </message>
    <message>
        <source>Billed on spot card-hours, the only price of {gpu} here: the other plans are billed on prices without interruptions, so this cost is not comparable with theirs, and a reclaim can stop the run. Enter an on-demand or monthly quote for {gpu}, or set constraints.rental_mode to spot to compare every plan on spot.</source>
        <translation>以竞价卡时计费，这是 {gpu} 在此处唯一的价格：其他方案按不会中断的价格计费，因此此费用与它们不可比，且一次回收就可能中断运行。请为 {gpu} 输入按需或包月报价，或在“时间与预算”页把租用方式设为竞价卡时，让所有方案都按竞价比较。</translation>
    </message>
    <message>
        <source>Tight: {free:.1%} of the card free, less than the memory model&apos;s p75 error of {margin:.1%} on published runs.</source>
        <translation>偏紧：空闲显存占 {free:.1%}，少于显存模型在公开运行上的 p75 误差 {margin:.1%}。</translation>
    </message>
    <message>
        <source>{free:.1%} of the card free: more than the memory model&apos;s p75 error of {margin:.1%}.</source>
        <translation>空闲显存占 {free:.1%}：多于显存模型的 p75 误差 {margin:.1%}。</translation>
    </message>
</context>
<context>
    <name>SafeRead</name>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>JSON file</source>
        <translation>JSON 文件</translation>
    </message>
    <message>
        <source>scenario file</source>
        <translation>场景文件</translation>
    </message>
    <message>
        <source>ref file</source>
        <translation>ref 文件</translation>
    </message>
    <message>
        <source>kit result</source>
        <translation>验收套件结果</translation>
    </message>
    <message>
        <source>text file</source>
        <translation>文本文件</translation>
    </message>
    <message>
        <source>kernel log</source>
        <translation>内核日志</translation>
    </message>
    <message>
        <source>tool output</source>
        <translation>工具输出</translation>
    </message>
    <message>
        <source>ibstat/ibv_devinfo output</source>
        <translation>ibstat/ibv_devinfo 输出</translation>
    </message>
    <message>
        <source>nvidia-smi topo -m output</source>
        <translation>nvidia-smi topo -m 输出</translation>
    </message>
    <message>
        <source>{file}: not found</source>
        <translation>{file}：找不到该文件</translation>
    </message>
    <message>
        <source>{file}: cannot read ({why})</source>
        <translation>{file}：无法读取（{why}）</translation>
    </message>
    <message>
        <source>a folder</source>
        <translation>是文件夹</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>{file}: {kind}, not a {what}</source>
        <translation>{file}：{kind}，不是{what}</translation>
    </message>
    <message>
        <source>{file}: too large for a {what} (over {limit} bytes)</source>
        <translation>{file}：文件过大，不像{what}（超过 {limit} 字节）</translation>
    </message>
    <message>
        <source>{token} is not allowed</source>
        <translation>不允许使用 {token}</translation>
    </message>
    <message>
        <source>number {token} is out of range</source>
        <translation>数字 {token} 超出范围</translation>
    </message>
    <message>
        <source>a whole number of more than {n} digits is out of range</source>
        <translation>超过 {n} 位的整数超出范围</translation>
    </message>
    <message>
        <source>{file}: UTF-16 text; expected UTF-8</source>
        <translation>{file}：UTF-16 文本；应为 UTF-8</translation>
    </message>
    <message>
        <source>{file}: not UTF-8 text (invalid byte at offset {n})</source>
        <translation>{file}：不是 UTF-8 文本（偏移 {n} 处有无效字节）</translation>
    </message>
    <message>
        <source>{file}: JSON nested too deeply (over {n} levels)</source>
        <translation>{file}：JSON 嵌套过深（超过 {n} 层）</translation>
    </message>
    <message>
        <source>{file}: not valid JSON (line {line}, column {col}: {msg})</source>
        <translation>{file}：不是有效的 JSON（第 {line} 行，第 {col} 列：{msg}）</translation>
    </message>
    <message>
        <source>{file}: JSON nested too deeply</source>
        <translation>{file}：JSON 嵌套过深</translation>
    </message>
    <message>
        <source>{file}: not valid JSON ({why})</source>
        <translation>{file}：不是有效的 JSON（{why}）</translation>
    </message>
    <message>
        <source>expected a file name, got {value}</source>
        <translation>应为文件名，实际为 {value}</translation>
    </message>
    <message>
        <source>{file}: a file name cannot hold a NUL byte</source>
        <translation>{file}：文件名不能包含 NUL 字节</translation>
    </message>
    <message>
        <source>{file}: not a valid file name (unencodable character)</source>
        <translation>{file}：不是有效的文件名（含无法编码的字符）</translation>
    </message>
    <message>
        <source>{file}: file name too long (at most {n} bytes, {part} a part)</source>
        <translation>{file}：文件名过长（最多 {n} 字节，每一级最多 {part} 字节）</translation>
    </message>
    <message>
        <source>{file}: not a regular file, not a {what}</source>
        <translation>{file}：不是普通文件，不是{what}</translation>
    </message>
    <message>
        <source>a lone surrogate escape in a string</source>
        <translation>字符串中有不成对的代理项转义</translation>
    </message>
    <message>
        <source>quote sheet</source>
        <translation>报价单</translation>
    </message>
    <message>
        <source>plan file</source>
        <translation>方案文件</translation>
    </message>
    <message>
        <source>given twice</source>
        <translation>出现了两次</translation>
    </message>
</context>
<context>
    <name>ScalingChart</name>
    <message>
        <source>Scaling with GPU count</source>
        <translation>随 GPU 数量的扩展</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>每秒 token 数</translation>
    </message>
    <message>
        <source>days to finish</source>
        <translation>完成天数</translation>
    </message>
    <message>
        <source>Plot throughput or the days needed to process the data</source>
        <translation>绘制吞吐量，或处理完数据所需的天数</translation>
    </message>
    <message>
        <source>NVLink (1 node)</source>
        <translation>NVLink（单节点）</translation>
    </message>
    <message>
        <source>PCIe (1 node)</source>
        <translation>PCIe（单节点）</translation>
    </message>
    <message>
        <source>Multi-node</source>
        <translation>多节点</translation>
    </message>
    <message>
        <source>ideal linear</source>
        <translation>理想线性</translation>
    </message>
    <message>
        <source>deadline</source>
        <translation>截止时间</translation>
    </message>
    <message>
        <source>{0}: {1} GPUs → {2} days</source>
        <translation>{0}：{1} 张 GPU → {2} 天</translation>
    </message>
    <message>
        <source>{0}: {1} GPUs → {2} tokens/s</source>
        <translation>{0}：{1} 张 GPU → {2} token/s</translation>
    </message>
    <message>
        <source>No curve: {0}</source>
        <translation>无法绘制曲线：{0}</translation>
    </message>
    <message>
        <source>calendar days</source>
        <translation>日历天数</translation>
    </message>
    <message>
        <source>needed for the deadline: {0} tokens/s</source>
        <translation>赶上截止时间需要：{0} token/s</translation>
    </message>
    <message>
        <source>deadline {0} days: far above every point</source>
        <translation>截止时间 {0} 天：远高于所有数据点</translation>
    </message>
    <message>
        <source>deadline needs {0} tokens/s: met at every count</source>
        <translation>截止时间需要 {0} token/s：所有 GPU 数都能满足</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>No layout of this scenario fits at these GPU counts.</source>
        <translation>在这些 GPU 数量下，该场景没有放得下的布局。</translation>
    </message>
    <message>
        <source>No estimate yet.</source>
        <translation>尚无估算结果。</translation>
    </message>
    <message>
        <source>deadline ({0} days)</source>
        <translation>截止时间（{0} 天）</translation>
    </message>
</context>
<context>
    <name>Scenario</name>
    <message>
        <source>precision {precision} names the {recipe} recipe, fp8_recipe says {given}</source>
        <translation>precision {precision} 指定的是 {recipe} 方案，而 fp8_recipe 为 {given}</translation>
    </message>
    <message>
        <source>custom GPU id {id} is given twice</source>
        <translation>自定义 GPU 编号 {id} 出现了两次</translation>
    </message>
    <message>
        <source>num_gpus must be divisible by tp·pp and by nodes</source>
        <translation>num_gpus 必须能被 tp·pp 和节点数整除</translation>
    </message>
    <message>
        <source>training.use_cache needs a framework that runs Hugging Face modelling code (hf, deepspeed, fsdp and the tools on them); {framework} builds its own model</source>
        <translation>training.use_cache 需要运行 Hugging Face 建模代码的框架（hf、deepspeed、fsdp 及基于它们的工具）；{framework} 自己构建模型</translation>
    </message>
    <message>
        <source>training.dora needs method lora or qlora</source>
        <translation>training.dora 需要 method 为 lora 或 qlora</translation>
    </message>
    <message>
        <source>training.dora is priced for PEFT&apos;s DoRA only (Hugging Face-based tools), not this framework</source>
        <translation>training.dora 只按 PEFT 的 DoRA 估算（基于 Hugging Face 的工具），不适用于此框架</translation>
    </message>
    <message>
        <source>training.preference.reference_grad_buffer needs a separate reference model; objective {objective} runs none here</source>
        <translation>training.preference.reference_grad_buffer 需要一个独立的参考模型；此处目标 {objective} 不运行参考模型</translation>
    </message>
    <message>
        <source>training.rl.rollout_len={rollout} leaves no room for the prompt in seq_len={seq_len}</source>
        <translation>training.rl.rollout_len={rollout} 在 seq_len={seq_len} 中没有留给提示的长度</translation>
    </message>
    <message>
        <source>training.rl.schedule={schedule} needs generation_engine vllm_separate (generation on its own GPUs, overlapped with training)</source>
        <translation>training.rl.schedule={schedule} 需要 generation_engine 为 vllm_separate（在独立的 GPU 上生成，与训练重叠）</translation>
    </message>
    <message>
        <source>training.rl.steps_in_flight={n} needs schedule async (on_policy has no batch in flight, one_step_off one)</source>
        <translation>training.rl.steps_in_flight={n} 需要 schedule 为 async（on_policy 没有在途的批次，one_step_off 只有一个）</translation>
    </message>
    <message>
        <source>training.rl.offload_model needs generation_engine vllm_colocated (the training model leaves the GPUs vLLM generates on)</source>
        <translation>training.rl.offload_model 需要 generation_engine 为 vllm_colocated（训练模型让出 vLLM 生成所用的 GPU）</translation>
    </message>
    <message>
        <source>training.rl.offload_model is a Megatron-SWIFT setting (--offload_model, --offload_optimizer); framework {framework} has no such choice</source>
        <translation>training.rl.offload_model 是 Megatron-SWIFT 的设置（--offload_model、--offload_optimizer）；框架 {framework} 没有这一选项</translation>
    </message>
    <message>
        <source>training.rl.hybrid_engine needs generation_engine training (DeepSpeed-Chat&apos;s Hybrid Engine generates with the training model)</source>
        <translation>training.rl.hybrid_engine 需要 generation_engine 为 training（DeepSpeed 对话训练示例的混合引擎用训练模型本身生成）</translation>
    </message>
    <message>
        <source>training.rl.hybrid_engine is a DeepSpeed-Chat setting (--enable_hybrid_engine); framework {framework} has no such choice</source>
        <translation>training.rl.hybrid_engine 是 DeepSpeed 对话训练示例的设置（--enable_hybrid_engine）；框架 {framework} 没有这一选项</translation>
    </message>
    <message>
        <source>training.rl.hybrid_engine is a DeepSpeed-Chat setting (--enable_hybrid_engine): constraints.framework_candidates must include deepspeed</source>
        <translation>training.rl.hybrid_engine 是 DeepSpeed 对话训练示例的设置（--enable_hybrid_engine）：constraints.framework_candidates 必须包含 deepspeed</translation>
    </message>
    <message>
        <source>training.lora_layer {layer} patches Hugging Face linear layers: constraints.framework_candidates must include a framework that runs them, or use lora_layer peft</source>
        <translation>training.lora_layer {layer} 替换的是 Hugging Face 模型的线性层：constraints.framework_candidates 必须包含运行这些层的框架，或请使用 lora_layer peft</translation>
    </message>
    <message>
        <source>training.lora_layer {layer} is a LoRA layer without DoRA; use method lora or qlora with dora false, or lora_layer peft</source>
        <translation>training.lora_layer {layer} 是不带 DoRA 的 LoRA 层；请使用 method lora 或 qlora 并设 dora 为 false，或改用 lora_layer peft</translation>
    </message>
    <message>
        <source>training.lora_layer {layer} patches Hugging Face linear layers; framework {framework} runs its own LoRA layers (use lora_layer peft)</source>
        <translation>training.lora_layer {layer} 替换的是 Hugging Face 模型的线性层；框架 {framework} 运行自己的 LoRA 层（请使用 lora_layer peft）</translation>
    </message>
    <message>
        <source>training.gpt_j_residual is GPT-NeoX&apos;s gpt-j-residual switch; framework {framework} has no such choice</source>
        <translation>training.gpt_j_residual 是 GPT-NeoX 的 gpt-j-residual 开关；框架 {framework} 没有这一选项</translation>
    </message>
    <message>
        <source>GPT-NeoX has no FP8 recipe (no Transformer Engine); use precision bf16 or fp16</source>
        <translation>GPT-NeoX 没有 FP8 方案（没有 Transformer Engine）；请使用 bf16 或 fp16 精度</translation>
    </message>
    <message>
        <source>training.fsdp2_fp32_upcast needs method lora on FSDP2 (framework fsdp, fsdp_version 2, parallel.zero 3)</source>
        <translation>training.fsdp2_fp32_upcast 需要在 FSDP2 上使用 lora 方法（framework fsdp，fsdp_version 2，parallel.zero 3）</translation>
    </message>
    <message>
        <source>hardware.num_gpus={n} is not divisible by tp·pp·cp={group}</source>
        <translation>hardware.num_gpus={n} 不能被 tp·pp·cp={group} 整除</translation>
    </message>
    <message>
        <source>parallel.tp={tp} must be a multiple of gpus_per_node={per_node} when it spans nodes</source>
        <translation>parallel.tp={tp} 跨节点时必须是 gpus_per_node={per_node} 的整数倍</translation>
    </message>
    <message>
        <source>hardware.num_gpus={n} must be a whole number of nodes of {per_node} GPUs</source>
        <translation>hardware.num_gpus={n} 必须是整数个节点（每节点 {per_node} 张 GPU）</translation>
    </message>
    <message>
        <source>training.objective={objective} needs method full, lora or qlora (not pretrain)</source>
        <translation>training.objective={objective} 需要 method 为 full、lora 或 qlora（不能是 pretrain）</translation>
    </message>
    <message>
        <source>training.rl: prompt + rollout ({prompt} + {rollout}) must fit in seq_len={seq_len}</source>
        <translation>training.rl：prompt + rollout（{prompt} + {rollout}）必须不超过 seq_len={seq_len}</translation>
    </message>
    <message>
        <source>training.preference.reference=lora_base needs method lora or qlora</source>
        <translation>training.preference.reference=lora_base 需要 method 为 lora 或 qlora</translation>
    </message>
    <message>
        <source>parallel.offload_params needs zero=3 (FSDP/ZeRO-3 CPU offload)</source>
        <translation>parallel.offload_params 需要 zero=3（FSDP/ZeRO-3 CPU 卸载）</translation>
    </message>
    <message>
        <source>parallel.moe_dispatcher={d} is a Megatron-Core setting; {framework} has no such choice</source>
        <translation>parallel.moe_dispatcher={d} 是 Megatron-Core 的设置；{framework} 没有这一选项</translation>
    </message>
    <message>
        <source>training.logits_held describes an eager cross-entropy on Hugging Face modelling code; framework {framework} computes its own loss</source>
        <translation>「反向传播期间保留逻辑值」描述的是 Hugging Face 模型代码上未编译的交叉熵；框架 {framework} 自行计算损失</translation>
    </message>
    <message>
        <source>training.logits_held does not apply to objective {objective}: TRL&apos;s trainer computes its own log-probabilities, already modelled</source>
        <translation>「反向传播期间保留逻辑值」不适用于训练目标 {objective}：TRL 的训练器自行计算对数概率，其显存已计入估算</translation>
    </message>
    <message>
        <source>training.logits_held does not apply with chunked_loss: the logits exist one chunk at a time</source>
        <translation>「反向传播期间保留逻辑值」不适用于「分块损失」：逻辑值每次只存在一个分块</translation>
    </message>
    <message>
        <source>training.logits_held does not apply to a compiled loss (torch_compile with compile_loss): the fp32 logits stay inside the compiled graph</source>
        <translation>「反向传播期间保留逻辑值」不适用于编译的损失函数（「torch.compile」与「编译损失函数」）：fp32 逻辑值只存在于编译图内部</translation>
    </message>
    <message>
        <source>training.logits_held does not apply with liger_kernel: its fused loss never builds the logits</source>
        <translation>「反向传播期间保留逻辑值」不适用于「Liger Kernel 融合内核」：其融合损失从不生成逻辑值</translation>
    </message>
    <message>
        <source>training.fsdp_no_sync needs FSDP with sharded gradients (framework fsdp, or the Hugging Face stack with fsdp_version 1; parallel.zero 2 or 3)</source>
        <translation>training.fsdp_no_sync 需要梯度分片的 FSDP（framework 为 fsdp，或 fsdp_version 为 1 的 Hugging Face 技术栈；parallel.zero 为 2 或 3）</translation>
    </message>
    <message>
        <source>training.fsdp_lora_mixed_units needs method lora under FSDP1 (fsdp_version 1: framework fsdp or the Hugging Face stack; parallel.zero 2 or 3)</source>
        <translation>training.fsdp_lora_mixed_units 需要在 FSDP1 下使用 method lora（fsdp_version 为 1：framework 为 fsdp 或 Hugging Face 技术栈；parallel.zero 为 2 或 3）</translation>
    </message>
    <message>
        <source>training.mixed_precision_off needs method lora on the Hugging Face stack without DeepSpeed (parallel.zero 0, or Accelerate&apos;s FSDP1: fsdp_version 1 with parallel.zero 2 or 3)</source>
        <translation>training.mixed_precision_off 需要在不使用 DeepSpeed 的 Hugging Face 技术栈上使用 lora 方法（parallel.zero 0，或 Accelerate 的 FSDP1：fsdp_version 1 且 parallel.zero 2 或 3）</translation>
    </message>
    <message>
        <source>training.qlora_no_upcast needs method qlora on a tool whose loader casts the non-4-bit parameters to fp32 (framework hf or trl)</source>
        <translation>training.qlora_no_upcast 需要 qlora 方法，且所用工具的加载器会把非 4 位参数转为 fp32（框架为 hf 或 trl）</translation>
    </message>
    <message>
        <source>training.global_batch_size={gbs} is not a multiple of micro_batch_size×dp={mbs}×{dp}</source>
        <translation>training.global_batch_size={gbs} 不是 micro_batch_size×dp={mbs}×{dp} 的整数倍</translation>
    </message>
    <message>
        <source>parallel.ep_a2a_overlap is a Megatron-Core setting; {framework} has no such choice</source>
        <translation>parallel.ep_a2a_overlap 是 Megatron-Core 的设置；{framework} 没有这一选项</translation>
    </message>
    <message>
        <source>parallel.ep_a2a_overlap with training.recompute=full: Megatron-Core refuses full recompute with the expert all-to-all overlap</source>
        <translation>parallel.ep_a2a_overlap 与 training.recompute=full 不能同时使用：Megatron-Core 在专家全对全通信重叠下不支持完全重计算</translation>
    </message>
    <message>
        <source>parallel.ep_a2a_overlap with &apos;moe&apos; in training.recompute_modules: Megatron-Core refuses to recompute the MoE layer under the expert all-to-all overlap</source>
        <translation>parallel.ep_a2a_overlap 与 training.recompute_modules 中的 moe 不能同时使用：Megatron-Core 在专家全对全通信重叠下不支持重计算 MoE 层</translation>
    </message>
    <message>
        <source>parallel.ep_a2a_overlap needs the alltoall or flex dispatcher, not allgather (Megatron-Core)</source>
        <translation>parallel.ep_a2a_overlap 需要 alltoall 或 flex 分发器，不能用 allgather（Megatron-Core）</translation>
    </message>
    <message>
        <source>parallel.ep_a2a_overlap needs expert parallelism: parallel.ep &gt; 1 (Megatron-Core)</source>
        <translation>parallel.ep_a2a_overlap 需要专家并行：parallel.ep &gt; 1（Megatron-Core）</translation>
    </message>
    <message>
        <source>parallel.ep_a2a_overlap with parallel.pp &gt; 1 needs parallel.vpp &gt; 1 (Megatron-Core)</source>
        <translation>parallel.ep_a2a_overlap 在 parallel.pp &gt; 1 时需要 parallel.vpp &gt; 1（Megatron-Core）</translation>
    </message>
    <message>
        <source>training.recompute_modules is a Megatron-Core setting; {framework} has no such choice</source>
        <translation>training.recompute_modules 是 Megatron-Core 的设置；{framework} 没有这一选项</translation>
    </message>
    <message>
        <source>training.recompute_modules needs training.recompute=megatron_selective (Megatron-Core reads the modules only under selective recompute), not {recompute}</source>
        <translation>training.recompute_modules 需要 training.recompute=megatron_selective（Megatron-Core 只在选择性重计算下读取这些模块），而不是 {recompute}</translation>
    </message>
    <message>
        <source>training.recompute_modules with moe_act or layernorm needs an FP8 recipe other than te_delayed (Megatron-Core: delayed scaling does not support them)</source>
        <translation>training.recompute_modules 含 moe_act 或 layernorm 时，FP8 配方不能是 te_delayed（Megatron-Core：延迟缩放不支持它们）</translation>
    </message>
    <message>
        <source>unknown field; did you mean {path}?</source>
        <translation>未知字段；你是不是要找 {path}？</translation>
    </message>
    <message>
        <source>a scenario must be a JSON object</source>
        <translation>场景必须是 JSON 对象</translation>
    </message>
    <message>
        <source>training.global_batch_size={gbs} is not a multiple of micro_batch_size×dp={mbs}×{dp}: with {n} GPUs a model-parallel group tp·pp·cp={g} (dp {d}) keeps this batch, or let the search choose the layout (parallel.auto)</source>
        <translation>training.global_batch_size={gbs} 不是 micro_batch_size×dp={mbs}×{dp} 的整数倍：{n} 张 GPU 时，模型并行组 tp·pp·cp={g}（dp {d}）可保持这个批次；也可以在“训练设置”页把并行布局设为“自动”，让搜索来选</translation>
    </message>
    <message>
        <source>training.liger_kernel patches Hugging Face models; framework {framework} does not run them</source>
        <translation>training.liger_kernel 修补的是 Hugging Face 模型；框架 {framework} 不运行这类模型</translation>
    </message>
    <message>
        <source>training.cut_cross_entropy=false describes Unsloth before November 2024; framework {framework} is not Unsloth</source>
        <translation>training.cut_cross_entropy=false 表示 2024 年 11 月之前的 Unsloth；框架 {framework} 不是 Unsloth</translation>
    </message>
    <message>
        <source>training.checkpoint_reentrant={value}: {framework} runs its own checkpoint function and has no such choice</source>
        <translation>training.checkpoint_reentrant={value}：{framework} 使用自带的检查点函数，没有这个选项</translation>
    </message>
    <message>
        <source>parallel.pp_account_embedding_loss is a Megatron-Core setting; {framework} has no such choice</source>
        <translation>parallel.pp_account_embedding_loss 是 Megatron-Core 的设置；{framework} 没有这一选项</translation>
    </message>
    <message>
        <source>parallel.cuda_graph_scope={scope} is a Megatron-Core setting; {framework} has no such choice</source>
        <translation>parallel.cuda_graph_scope={scope} 是 Megatron-Core 的设置；{framework} 没有这一选项</translation>
    </message>
    <message>
        <source>parallel.moe_capacity_factor and moe_pad_to_capacity are Megatron-Core settings; {framework} has no such choice</source>
        <translation>parallel.moe_capacity_factor 和 moe_pad_to_capacity 是 Megatron-Core 的设置；{framework} 没有这一选项</translation>
    </message>
    <message>
        <source>parallel.moe_pad_to_capacity needs parallel.moe_capacity_factor (Megatron-Core)</source>
        <translation>parallel.moe_pad_to_capacity 需要设置 parallel.moe_capacity_factor（Megatron-Core）</translation>
    </message>
    <message>
        <source>parallel.cuda_graph_scope={scope} with training.recompute=full: Megatron-Core runs full recompute only with a full-iteration CUDA graph</source>
        <translation>parallel.cuda_graph_scope={scope} 与 training.recompute=full 不能同时使用：Megatron-Core 只在整轮迭代 CUDA 图下支持完全重计算</translation>
    </message>
    <message>
        <source>training.attn_implementation=flash_attention_2 needs training.flash_attention on</source>
        <translation>training.attn_implementation=flash_attention_2 需要打开 training.flash_attention</translation>
    </message>
    <message>
        <source>training.empty_cache_steps is the Hugging Face Trainer&apos;s torch_empty_cache_steps; framework {framework} has no such choice</source>
        <translation>training.empty_cache_steps 是 Hugging Face Trainer 的 torch_empty_cache_steps；框架 {framework} 没有此选项</translation>
    </message>
    <message>
        <source>training.legacy_bnb_4bit needs method qlora (bitsandbytes 4-bit weights)</source>
        <translation>training.legacy_bnb_4bit 需要 method 为 qlora（bitsandbytes 4 位权重）</translation>
    </message>
    <message>
        <source>training.bnb_fp16_storage needs method qlora (bitsandbytes 4-bit weights)</source>
        <translation>training.bnb_fp16_storage 需要 method 为 qlora（bitsandbytes 4 位权重）</translation>
    </message>
    <message>
        <source>data.sample_len_std needs data.mean_sample_len (the spread is of the samples&apos; lengths)</source>
        <translation>data.sample_len_std 需要同时给出 data.mean_sample_len（离散度指的是样本长度的离散度）</translation>
    </message>
    <message>
        <source>training.fused_cross_entropy is Megatron-Core&apos;s --cross-entropy-loss-fusion; framework {framework} has no such choice</source>
        <translation>training.fused_cross_entropy 是 Megatron-Core 的 --cross-entropy-loss-fusion 开关；框架 {framework} 没有这个选项</translation>
    </message>
    <message>
        <source>training.preference.reference_grad_buffer describes Megatron-SWIFT&apos;s full-parameter reference before ms-swift 3.9; framework {framework} with method {method} has none</source>
        <translation>training.preference.reference_grad_buffer 描述的是 ms-swift 3.9 之前 Megatron-SWIFT 全参数训练的参考模型；框架 {framework}、方法 {method} 没有这种情况</translation>
    </message>
    <message>
        <source>Nanotron has no FP8 recipe (no Transformer Engine or torchao float8); use precision bf16</source>
        <translation>Nanotron 没有 FP8 方案（不使用 Transformer Engine 或 torchao float8）；请使用 bf16 精度</translation>
    </message>
    <message>
        <source>training.preference.rpo_alpha is DPO&apos;s NLL weight; objective {objective} has none</source>
        <translation>training.preference.rpo_alpha 是 DPO 的 NLL 权重；目标 {objective} 没有此项</translation>
    </message>
    <message>
        <source>training.preference.rpo_alpha is priced for TRL&apos;s DPOTrainer only; framework {framework} runs its own DPO loss</source>
        <translation>training.preference.rpo_alpha 仅按 TRL 的 DPOTrainer 估算；框架 {framework} 使用自己的 DPO 损失</translation>
    </message>
</context>
<context>
    <name>ScenarioFiles</name>
    <message>
        <source>{file}: a quote sheet, not a task; give a scenario (.json) or a plan file (.gpuplan), and the sheet after it to “gpuplanner quotes”</source>
        <translation>{file}：这是报价单，不是训练任务；请给出场景文件（.json）或方案文件（.gpuplan），报价单放在它之后交给 quotes（报价）命令</translation>
    </message>
    <message>
        <source>{file}: {error}</source>
        <translation>{file}：{error}</translation>
    </message>
</context>
<context>
    <name>ScenarioModel</name>
    <message>
        <source>The Data page gives the data as samples × length: enter the length</source>
        <translation>“数据量”页按“样本数 × 长度”给出数据：请填写长度</translation>
    </message>
</context>
<context>
    <name>SearchController</name>
    <message>
        <source>The plan search process stopped unexpectedly (exit code {0}); the next search starts it again.</source>
        <translation>方案搜索进程意外停止（退出码 {0}）；下一次搜索会重新启动它。</translation>
    </message>
</context>
<context>
    <name>SpotPrice</name>
    <message>
        <source>Spot price, {0}:</source>
        <translation>{0} 的竞价价格：</translation>
    </message>
    <message>
        <source>{0} per card-hour</source>
        <translation>{0}/卡时</translation>
    </message>
    <message>
        <source>no spot offer</source>
        <translation>无竞价报价</translation>
    </message>
    <message>
        <source>Your spot (interruptible) price per card and hour for this GPU: cheaper than on demand, but the provider may take the cards back, so the plan counts restarts. Select a row to price another GPU. Empty (default): the catalog&apos;s spot price where it has one, else no spot offer</source>
        <translation>你为这款 GPU 填写的竞价（可中断）价格，按卡时计：比按需便宜，但供应商可能收回显卡，所以方案会计入重启。选中表格中的另一行即可为另一款 GPU 定价。留空（默认）：使用目录中的竞价价格（如有），否则没有竞价报价</translation>
    </message>
</context>
<context>
    <name>Tier</name>
    <message>
        <source>~10B tier: one node of 4–8 GPUs (≥160 GB in total) is enough; NVLink inside the node helps tensor parallelism, PCIe servers work with ZeRO/FSDP data parallelism.</source>
        <translation>~10B 档：一个 4–8 卡节点（总计 ≥160 GB）即可；节点内的 NVLink 有利于张量并行，PCIe 服务器可配合 ZeRO/FSDP 数据并行使用。</translation>
    </message>
    <message>
        <source>~100B tier: several nodes with tensor + pipeline parallelism, ≥80 GB cards, ≥400 Gb/s between nodes (InfiniBand or RoCE), NVLink inside each node.</source>
        <translation>~100B 档：多个节点，采用张量并行 + 流水线并行，单卡 ≥80 GB，节点间 ≥400 Gb/s（InfiniBand 或 RoCE），节点内 NVLink。</translation>
    </message>
    <message>
        <source>~1000B tier: hundreds of cards from a cluster pool; confirm the vendor&apos;s real elastic capacity, the network topology and failure handling before planning.</source>
        <translation>~1000B 档：从集群资源池调用数百张卡；规划前请与供应商确认真实的弹性容量、网络拓扑和故障处理机制。</translation>
    </message>
    <message>
        <source>~10B tier, LoRA/QLoRA: the frozen weights (2 bytes per parameter, about 0.5 with 4-bit QLoRA) and small adapters fit on one GPU (a 24 GB card for a 7B model); more GPUs only shorten the run.</source>
        <translation>~10B 档，LoRA/QLoRA：冻结的权重（每个参数 2 字节，4 位 QLoRA 约 0.5 字节）和小的适配器放得进一张 GPU（7B 模型用一张 24 GB 的卡）；更多 GPU 只是缩短训练时间。</translation>
    </message>
    <message>
        <source>~100B tier, LoRA/QLoRA: the frozen weights decide the cards: one node of ≥80 GB cards for 16-bit LoRA, a single 48–80 GB card for a ~70B model with 4-bit QLoRA; no multi-node network is needed.</source>
        <translation>~100B 档，LoRA/QLoRA：冻结的权重决定用什么卡：16 位 LoRA 用一个 ≥80 GB 显卡的节点，~70B 模型用 4 位 QLoRA 时一张 48–80 GB 的卡即可；不需要多节点网络。</translation>
    </message>
</context>
<context>
    <name>Timing</name>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>tensor-parallel communication</source>
        <translation>张量并行通信</translation>
    </message>
    <message>
        <source>data-parallel / ZeRO communication</source>
        <translation>数据并行 / ZeRO 通信</translation>
    </message>
    <message>
        <source>pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>context-parallel communication</source>
        <translation>上下文并行通信</translation>
    </message>
    <message>
        <source>pipeline point-to-point sends</source>
        <translation>流水线点对点发送</translation>
    </message>
    <message>
        <source>expert all-to-all</source>
        <translation>专家全对全通信</translation>
    </message>
    <message>
        <source>FSDP1: casting and dividing every gradient around its reduce-scatter (exposed)</source>
        <translation>FSDP1：每次归约散射前后对梯度的类型转换与除法（暴露）</translation>
    </message>
    <message>
        <source>rollout generation (RL)</source>
        <translation>采样生成（强化学习）</translation>
    </message>
    <message>
        <source>optimizer step and other</source>
        <translation>优化器步骤及其他</translation>
    </message>
    <message>
        <source>no {p} peak in the catalog; using the {o} figure</source>
        <translation>目录中没有 {p} 峰值；改用 {o} 的数据</translation>
    </message>
    <message>
        <source>the catalog has no dense {p} TFLOPS for {gpu}; choose another precision or GPU, or set assumptions.mfu with a known peak</source>
        <translation>目录中没有 {gpu} 的稠密 {p} TFLOPS；请换一种精度或 GPU，或在 assumptions.mfu 中按已知峰值设定</translation>
    </message>
    <message>
        <source>memory bandwidth unknown; assuming 1 TB/s</source>
        <translation>显存带宽未知；按 1 TB/s 计</translation>
    </message>
    <message>
        <source>intra-node bandwidth unknown; assuming PCIe Gen3 (16 GB/s)</source>
        <translation>节点内带宽未知；按 PCIe Gen3（16 GB/s）计</translation>
    </message>
    <message>
        <source>no GPU peer-to-peer: collectives go through host memory (~10 GB/s)</source>
        <translation>GPU 之间无 P2P：集合通信经由主机内存（~10 GB/s）</translation>
    </message>
    <message>
        <source>NVLink bridges join pairs of GPUs; groups larger than two use PCIe</source>
        <translation>NVLink 桥只连接成对的 GPU；超过两张的组走 PCIe</translation>
    </message>
    <message>
        <source>hardware.inter_node &apos;{id}&apos; is not an inter-node fabric</source>
        <translation>hardware.inter_node “{id}”不是节点间网络</translation>
    </message>
    <message>
        <source>LoRA adapter passes</source>
        <translation>LoRA 适配器的访存开销</translation>
    </message>
    <message>
        <source>DoRA: the adapted weights&apos; norm, every forward</source>
        <translation>DoRA：每次前向都重算被适配权重的范数</translation>
    </message>
    <message>
        <source>DeepSpeed BF16 optimizer: gradients added into fp32 copies, every micro-batch</source>
        <translation>DeepSpeed BF16 优化器：每个微批次把梯度累加进 FP32 副本</translation>
    </message>
    <message>
        <source>kernel launch overhead (eager PyTorch)</source>
        <translation>内核启动开销（PyTorch eager 模式）</translation>
    </message>
    <message>
        <source>FSDP1 hooks on every LoRA weight (host)</source>
        <translation>FSDP1 逐 LoRA 权重钩子（主机端）</translation>
    </message>
    <message>
        <source>FSDP1 hooks on every LoRA weight, log-prob pass (host)</source>
        <translation>FSDP1 逐 LoRA 权重钩子，对数概率前向（主机端）</translation>
    </message>
    <message>
        <source>MoE token permute and router</source>
        <translation>MoE token 重排与路由</translation>
    </message>
    <message>
        <source>MoE weight gradients: few tokens per expert, the fp32 gradient buffer&apos;s traffic binds</source>
        <translation>MoE 权重梯度：每个专家的 token 很少，fp32 梯度缓冲区的显存读写成为瓶颈</translation>
    </message>
    <message>
        <source>rollouts: waiting for the longest completion</source>
        <translation>采样：等待最长的生成结束</translation>
    </message>
    <message>
        <source>rollouts: loading the new weights into the inference engine</source>
        <translation>采样：把新权重加载到推理引擎</translation>
    </message>
    <message>
        <source>NeMo RL refit: exporting and loading the weights one tensor at a time (host)</source>
        <translation>NeMo RL 权重同步：逐个张量导出并加载权重（主机）</translation>
    </message>
    <message>
        <source>CPU offload: optimizer step on the CPU and PCIe copies</source>
        <translation>CPU 卸载：在 CPU 上执行的优化器步和 PCIe 拷贝</translation>
    </message>
    <message>
        <source>context parallel: merging the ring&apos;s partial attention</source>
        <translation>上下文并行：合并环形注意力的分块结果</translation>
    </message>
    <message>
        <source>MoE layers waiting for the host (dispatcher sync)</source>
        <translation>MoE 层等待主机下发（分发器同步）</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO-3: weight gathers with no matmul to hide under (exposed)</source>
        <translation>DeepSpeed ZeRO-3：无矩阵乘可掩盖的权重收集（暴露）</translation>
    </message>
    <message>
        <source>QLoRA: dequantising the 4-bit weights</source>
        <translation>QLoRA：4 位权重反量化</translation>
    </message>
    <message>
        <source>eager attention (Transformers): the whole score matrix</source>
        <translation>eager 注意力（Transformers）：完整得分矩阵</translation>
    </message>
    <message>
        <source>padded batch: SDPA&apos;s memory-efficient kernel over the whole square</source>
        <translation>填充批次：SDPA 显存高效内核计算完整方阵</translation>
    </message>
    <message>
        <source>NeMo RL: optimizer and weight copies to the host around the refit</source>
        <translation>NeMo RL：权重同步前后优化器与权重在主机间的拷贝</translation>
    </message>
    <message>
        <source>training model to CPU memory while vLLM generates, and back (offload_model)</source>
        <translation>vLLM 生成时训练模型移到 CPU 内存并移回（offload_model）</translation>
    </message>
    <message>
        <source>Grace host CPU: issuing kernels slower than an x86 server</source>
        <translation>Grace 主机 CPU：下发内核比 x86 服务器慢</translation>
    </message>
    <message>
        <source>waiting for the longest</source>
        <translation>等待最长的生成</translation>
    </message>
    <message>
        <source>loading the weights</source>
        <translation>加载权重</translation>
    </message>
    <message>
        <source>NeMo RL per-tensor refit</source>
        <translation>NeMo RL 逐张量权重同步</translation>
    </message>
    <message>
        <source>all-reduces between nodes</source>
        <translation>跨节点 all-reduce</translation>
    </message>
    <message>
        <source>rollout generation the training does not hide (RL)</source>
        <translation>训练未能掩盖的采样生成（强化学习）</translation>
    </message>
    <message>
        <source>FP8 recipe {recipe} needs a datacenter Blackwell GPU (B200, GB200); {gpu} cannot run it</source>
        <translation>FP8 方案 {recipe} 需要数据中心级 Blackwell GPU（B200、GB200）；{gpu} 无法运行</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO-3 hooks on every submodule (host)</source>
        <translation>DeepSpeed ZeRO-3 逐子模块钩子（主机端）</translation>
    </message>
    <message>
        <source>MoE expert loop in Python (a host sync per expert)</source>
        <translation>MoE 专家的 Python 循环（每个专家一次主机同步）</translation>
    </message>
    <message>
        <source>pipeline: waiting for the last stage (output layer)</source>
        <translation>流水线：等待最后一级（输出层）</translation>
    </message>
    <message>
        <source>MoE per-expert kernels (GEMMs and FP8 casts, one set per expert)</source>
        <translation>MoE 逐专家内核（矩阵乘与 FP8 转换，每个专家一组）</translation>
    </message>
    <message>
        <source>rollouts: vLLM all-reduces between nodes (tensor parallelism wider than a node)</source>
        <translation>采样：vLLM 跨节点的 all-reduce（张量并行跨越多个节点）</translation>
    </message>
    <message>
        <source>compute slowed by the data-parallel collectives beside it</source>
        <translation>与数据并行集合通信重叠而变慢的计算</translation>
    </message>
</context>
<context>
    <name>Topology</name>
    <message>
        <source>line {n}: {msg}</source>
        <translation>第 {n} 行：{msg}</translation>
    </message>
    <message>
        <source>this is too long for nvidia-smi topo -m output (over {n} MB)</source>
        <translation>内容过长，不像 nvidia-smi topo -m 的输出（超过 {n} MB）</translation>
    </message>
    <message>
        <source>empty input: paste the output of &apos;nvidia-smi topo -m&apos;</source>
        <translation>输入为空：请粘贴“nvidia-smi topo -m”的输出</translation>
    </message>
    <message>
        <source>no &apos;nvidia-smi topo -m&apos; header found (a line like &apos;GPU0  GPU1 ... CPU Affinity&apos;); line {n} is &apos;{text}&apos;</source>
        <translation>未找到“nvidia-smi topo -m”的表头（类似“GPU0  GPU1 ... CPU Affinity”的一行）；第 {n} 行是“{text}”</translation>
    </message>
    <message>
        <source>header repeats a column: &apos;{text}&apos;</source>
        <translation>表头有重复的列：“{text}”</translation>
    </message>
    <message>
        <source>device columns must come before the affinity columns</source>
        <translation>设备列必须在亲和性列之前</translation>
    </message>
    <message>
        <source>expected GPU columns GPU0..GPU{last} in order, got {got}</source>
        <translation>应按顺序为 GPU0..GPU{last} 列，实际为 {got}</translation>
    </message>
    <message>
        <source>row {row} is not among the header columns ({first}..{last})</source>
        <translation>行 {row} 不在表头的列中（{first}..{last}）</translation>
    </message>
    <message>
        <source>expected a GPU row like &apos;{example}&apos;, got &apos;{text}&apos;</source>
        <translation>应为类似“{example}”的 GPU 行，实际为“{text}”</translation>
    </message>
    <message>
        <source>row {row} appears twice</source>
        <translation>行 {row} 出现了两次</translation>
    </message>
    <message>
        <source>row {row} has {got} entries, the header has {want} columns: &apos;{text}&apos;</source>
        <translation>行 {row} 有 {got} 项，而表头有 {want} 列：“{text}”</translation>
    </message>
    <message>
        <source>{row} column {col}: unknown link class &apos;{tok}&apos; (expected X, NV#, PIX, PXB, PHB, NODE or SYS)</source>
        <translation>{row} 第 {col} 列：未知的链路类型“{tok}”（应为 X、NV#、PIX、PXB、PHB、NODE 或 SYS）</translation>
    </message>
    <message>
        <source>{gpus} GPU and {nics} other device columns: one server&apos;s &apos;nvidia-smi topo -m&apos; has at most {max} of each</source>
        <translation>{gpus} 个 GPU 列和 {nics} 个其他设备列：一台服务器的“nvidia-smi topo -m”每类最多 {max} 个</translation>
    </message>
    <message>
        <source>{row} column {col}: &apos;X&apos; must mark the row&apos;s own column only</source>
        <translation>{row} 第 {col} 列：“X”只能标在该行自己对应的列</translation>
    </message>
    <message>
        <source>{row} {col}: unexpected value &apos;{tok}&apos;</source>
        <translation>{row} {col}：意外的值“{tok}”</translation>
    </message>
    <message>
        <source>line {n}: header found but no GPU rows follow it</source>
        <translation>第 {n} 行：找到了表头，但后面没有 GPU 行</translation>
    </message>
    <message>
        <source>Partial output: rows {rows} are missing, so {k} of {total} GPU pairs are unknown; paste the full &apos;nvidia-smi topo -m&apos; output to confirm</source>
        <translation>输出不完整：缺少行 {rows}，因此 {total} 对 GPU 中有 {k} 对未知；请粘贴完整的“nvidia-smi topo -m”输出以确认</translation>
    </message>
    <message>
        <source>Single GPU: no GPU-to-GPU links to check (TP=1).</source>
        <translation>单卡：没有 GPU 间链路需要检查（TP=1）。</translation>
    </message>
    <message>
        <source>NVLink on all {k} listed GPU pairs ({nv}): tensor parallelism up to {tp} runs over NVLink if the missing pairs match (confirmed: up to {conf}).</source>
        <translation>列出的全部 {k} 对 GPU 都是 NVLink（{nv}）：若缺失的各对也一致，张量并行最高 {tp} 可走 NVLink（已确认：最高 {conf}）。</translation>
    </message>
    <message>
        <source>Full NVLink mesh across {n} GPUs ({nv}): tensor parallelism up to {tp} runs over NVLink.</source>
        <translation>{n} 张 GPU 之间为全互联 NVLink（{nv}）：张量并行最高 {tp} 可走 NVLink。</translation>
    </message>
    <message>
        <source>NV8 on every pair: typical of A800/H800 (8 NVLinks, 400 GB/s), about half the all-reduce bandwidth of NV12/NV18 parts</source>
        <translation>每对都是 NV8：A800/H800 的典型配置（8 条 NVLink，400 GB/s），all-reduce 带宽约为 NV12/NV18 型号的一半</translation>
    </message>
    <message>
        <source>No NVLink: GPU pairs talk over PCIe ({classes}) — keep TP=1 and prefer ZeRO/FSDP data parallelism</source>
        <translation>没有 NVLink：GPU 之间经 PCIe 通信（{classes}）——保持 TP=1，优先使用 ZeRO/FSDP 数据并行</translation>
    </message>
    <message>
        <source>NVLink only between pairs ({pairs}); other pairs use PCIe — TP up to {tp} over NVLink, data parallelism across pairs</source>
        <translation>只有成对的 GPU 之间有 NVLink（{pairs}）；其他各对走 PCIe——TP 最高 {tp} 可走 NVLink，各对之间用数据并行</translation>
    </message>
    <message>
        <source>The NVLink pairs are not consecutive GPU ids: set CUDA_VISIBLE_DEVICES={order} so TP=2 groups land on the bridges</source>
        <translation>NVLink 配对的 GPU 编号不连续：请设置 CUDA_VISIBLE_DEVICES={order}，让 TP=2 的组落在桥接的卡上</translation>
    </message>
    <message>
        <source>Partial NVLink: {nv} of {total} GPU pairs use NVLink ({cls}); tensor parallelism up to {tp} stays on NVLink</source>
        <translation>部分 NVLink：{total} 对 GPU 中有 {nv} 对使用 NVLink（{cls}）；张量并行最高 {tp} 可保持在 NVLink 上</translation>
    </message>
    <message>
        <source>plan uses TP={tp} but this server has only {n} GPU(s): a TP group would span servers over the network; choose TP≤{k}</source>
        <translation>方案使用 TP={tp}，但这台服务器只有 {n} 张 GPU：TP 组将经网络跨服务器；请选择 TP≤{k}</translation>
    </message>
    <message>
        <source>plan uses TP={tp} but {pair} cross the CPU socket (SYS): choose another server or TP≤{k}</source>
        <translation>方案使用 TP={tp}，但 {pair} 跨 CPU 插槽（SYS）：请换一台服务器或选择 TP≤{k}</translation>
    </message>
    <message>
        <source>plan uses TP={tp} but {pair} talk over PCIe ({cls}): choose another server or TP≤{k}</source>
        <translation>方案使用 TP={tp}，但 {pair} 经 PCIe 通信（{cls}）：请换一台服务器或选择 TP≤{k}</translation>
    </message>
    <message>
        <source>plan uses TP={tp}: {pair} is not in the pasted output, so NVLink inside every TP group cannot be confirmed</source>
        <translation>方案使用 TP={tp}：粘贴的输出中没有 {pair}，因此无法确认每个 TP 组内都是 NVLink</translation>
    </message>
    <message>
        <source>plan uses TP={tp}: every TP group is on NVLink.</source>
        <translation>方案使用 TP={tp}：每个 TP 组都在 NVLink 上。</translation>
    </message>
    <message>
        <source>TP={tp} does not divide the {n} GPUs: {left} GPU(s) would sit idle</source>
        <translation>TP={tp} 不能整除 {n} 张 GPU：将有 {left} 张 GPU 闲置</translation>
    </message>
    <message>
        <source>plan uses {p} GPUs; this server has {n}: {idle} would sit idle</source>
        <translation>方案使用 {p} 张 GPU；这台服务器有 {n} 张：{idle} 张将闲置</translation>
    </message>
    <message>
        <source>GPUs span {k} NUMA nodes: pin each training process to its GPU&apos;s CPU cores (CPU Affinity)</source>
        <translation>GPU 分布在 {k} 个 NUMA 节点上：请把每个训练进程绑定到其 GPU 对应的 CPU 核（CPU Affinity）</translation>
    </message>
    <message>
        <source>{gpu} has no NIC at PIX/PXB distance: inter-node traffic crosses the CPU</source>
        <translation>{gpu} 在 PIX/PXB 距离内没有网卡：节点间通信要经过 CPU</translation>
    </message>
    <message>
        <source>{gpus} have no NIC at PIX/PXB distance: inter-node traffic crosses the CPU</source>
        <translation>{gpus} 在 PIX/PXB 距离内没有网卡：节点间通信要经过 CPU</translation>
    </message>
    <message>
        <source>Every listed GPU has a NIC at PIX/PXB distance ({k} NICs).</source>
        <translation>列出的每张 GPU 在 PIX/PXB 距离内都有网卡（共 {k} 块网卡）。</translation>
    </message>
    <message>
        <source>plan spans {p} GPUs (more than this server&apos;s {n}) but the output lists no NIC: inter-node traffic needs an RDMA NIC near each GPU</source>
        <translation>方案跨 {p} 张 GPU（多于这台服务器的 {n} 张），但输出中没有列出网卡：节点间通信需要每张 GPU 附近有 RDMA 网卡</translation>
    </message>
    <message>
        <source>empty input: paste the output of &apos;nvidia-smi --query-gpu=... --format=csv&apos;</source>
        <translation>输入为空：请粘贴“nvidia-smi --query-gpu=... --format=csv”的输出</translation>
    </message>
    <message>
        <source>expected a CSV header like &apos;name, memory.total [MiB]&apos;, got &apos;{text}&apos;</source>
        <translation>应为类似“name, memory.total [MiB]”的 CSV 表头，实际为“{text}”</translation>
    </message>
    <message>
        <source>expected {want} comma-separated values, got &apos;{text}&apos;</source>
        <translation>应为 {want} 个逗号分隔的值，实际为“{text}”</translation>
    </message>
    <message>
        <source>{field}: expected a number in {unit}, got &apos;{val}&apos;</source>
        <translation>{field}：应为以 {unit} 为单位的数字，实际为“{val}”</translation>
    </message>
    <message>
        <source>GPU{i} draws {d:.0f} W of its {l:.0f} W limit ({p:.0f}%): if a training job is running, it is starved (data loading, communication) or capped; idle GPUs always draw little</source>
        <translation>GPU{i} 功耗 {d:.0f} W，上限 {l:.0f} W（{p:.0f}%）：如果正在训练，说明它在空等（数据加载、通信）或被限功耗；空闲的 GPU 功耗本来就低</translation>
    </message>
</context>
<context>
    <name>TrainingAdvanced</name>
    <message>
        <source>Advanced: memory switches and communication overlap</source>
        <translation>高级：显存开关与通信重叠</translation>
    </message>
    <message>
        <source>Estimate assumptions</source>
        <translation>估算假设</translation>
    </message>
    <message>
        <source>fp32 master weights and optimizer states</source>
        <translation>fp32 主权重和优化器状态</translation>
    </message>
    <message>
        <source>step each weight during the backward pass</source>
        <translation>在反向传播中逐个更新权重</translation>
    </message>
    <message>
        <source>saved activations in CPU memory</source>
        <translation>保存的激活值放在 CPU 内存</translation>
    </message>
    <message>
        <source>loss over the logits in chunks</source>
        <translation>分块计算 logits 上的损失</translation>
    </message>
    <message>
        <source>compiled (fused element-wise kernels)</source>
        <translation>编译（融合逐元素算子）</translation>
    </message>
    <message>
        <source>adapters inside their block&apos;s unit (Lightning Fabric, Composer)</source>
        <translation>适配器与所在块同属一个单元（Lightning Fabric、Composer）</translation>
    </message>
    <message>
        <source>frozen weights cast to fp32 (Accelerate before 1.13)</source>
        <translation>冻结权重转为 fp32（Accelerate 1.13 之前）</translation>
    </message>
    <message>
        <source>fp32 logits kept until the backward pass ends (prime-rl before March 2026)</source>
        <translation>fp32 逻辑值保留到反向传播结束（2026 年 3 月之前的 prime-rl）</translation>
    </message>
    <message>
        <source>norms and embeddings kept in 16 bits (fms-acceleration&apos;s loader)</source>
        <translation>归一化层和嵌入层保持 16 位（fms-acceleration 的加载器）</translation>
    </message>
    <message>
        <source>key/value cache built while training (old llama-recipes)</source>
        <translation>训练时构建键值缓存（旧版 llama-recipes）</translation>
    </message>
    <message>
        <source>weights and gradients in CPU memory too</source>
        <translation>权重和梯度也放在 CPU 内存</translation>
    </message>
    <message>
        <source>attention and MLP side by side, one all-reduce</source>
        <translation>注意力与 MLP 并行，只做一次 all-reduce</translation>
    </message>
    <message>
        <source>framework default</source>
        <translation>按框架默认</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开启</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>fused (one kernel)</source>
        <translation>融合（一个内核）</translation>
    </message>
    <message>
        <source>foreach (multi-tensor passes)</source>
        <translation>多张量遍历（八次）</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>PEFT / torchtune (default)</source>
        <translation>PEFT / torchtune（默认）</translation>
    </message>
    <message>
        <source>NeMo AutoModel, Triton kernels</source>
        <translation>NeMo AutoModel，Triton 内核</translation>
    </message>
    <message>
        <source>LitGPT before v0.3.1</source>
        <translation>LitGPT v0.3.1 之前的版本</translation>
    </message>
    <message>
        <source>overlap the expert all-to-all with another micro-batch</source>
        <translation>让专家全对全通信与另一个微批次的计算重叠</translation>
    </message>
    <message>
        <source>of peak</source>
        <translation>占峰值</translation>
    </message>
    <message>
        <source>modelled</source>
        <translation>按模型估算</translation>
    </message>
    <message>
        <source>default: 0.75</source>
        <translation>默认：0.75</translation>
    </message>
    <message>
        <source>of the rest</source>
        <translation>占其余部分</translation>
    </message>
    <message>
        <source>default: 0.05</source>
        <translation>默认：0.05</translation>
    </message>
    <message>
        <source>reserved (max_memory_reserved)</source>
        <translation>已预留（max_memory_reserved）</translation>
    </message>
    <message>
        <source>allocated (max_memory_allocated)</source>
        <translation>已分配（max_memory_allocated）</translation>
    </message>
    <message>
        <source>allocated on the last pipeline rank</source>
        <translation>流水线最后一个进程的已分配峰值</translation>
    </message>
    <message>
        <source>Master weights</source>
        <translation>主权重</translation>
    </message>
    <message>
        <source>On (default): an fp32 copy of the weights and fp32 optimizer states, as Megatron, DeepSpeed and PyTorch mixed precision keep them. Off: everything in 16 bits, as torchtune&apos;s bf16 recipes</source>
        <translation>开启（默认）：保留一份 fp32 权重副本和 fp32 优化器状态，与 Megatron、DeepSpeed 和 PyTorch 混合精度相同。关闭：全部用 16 位，与 torchtune 的 bf16 配方相同</translation>
    </message>
    <message>
        <source>The compile setting of torchtune and torchtitan (default off): element-wise operations are fused (faster steps); with chunked loss, only the 16-bit logits are kept</source>
        <translation>torchtune 和 torchtitan 的 compile 设置（默认关闭）：融合逐元素运算（单步更快）；配合分块损失时只保留 16 位 logits</translation>
    </message>
    <message>
        <source>bitsandbytes 0.41.0 to 0.43.1 kept each 4-bit layer&apos;s input from its forward to its backward (MatMul4Bit stored it outside save_for_backward; fixed in 0.43.2, July 2024), so with non-reentrant activation checkpointing every checkpointed layer holds those inputs too, and a layer without checkpointing holds the inputs it would not otherwise keep (more memory). Off (default): bitsandbytes 0.43.2 and later. QLoRA only</source>
        <translation>bitsandbytes 0.41.0 至 0.43.1 会把每个 4 位层的输入从前向一直保留到反向（MatMul4Bit 把它存在 save_for_backward 之外；0.43.2 于 2024 年 7 月修复），因此在非重入式激活检查点下，每个做检查点的层也会一直持有这些输入；不做检查点的层则会额外持有它原本不保存的那些输入（占用更多显存）。关闭（默认）：bitsandbytes 0.43.2 及以后。仅适用于 QLoRA</translation>
    </message>
    <message>
        <source>FSDP sync off while accumulating</source>
        <translation>梯度累积时关闭 FSDP 同步</translation>
    </message>
    <message>
        <source>With gradient accumulation, every micro-batch but the last of a step runs without FSDP&apos;s gradient sync (FSDP no_sync, Lightning Fabric no_backward_sync), so each GPU keeps the full, unsharded gradients of its trainable layers until the step&apos;s last micro-batch (more memory, as Accelerate&apos;s documentation warns). Framework default: on for the Hugging Face Trainer on FSDP1, off for torchtitan, torchtune and Composer. FSDP with sharded gradients only</source>
        <translation>使用梯度累积时，每一步中除最后一个微批次外都不做 FSDP 的梯度同步（FSDP no_sync，Lightning Fabric no_backward_sync），因此每块 GPU 会一直持有其可训练层完整的、未分片的梯度，直到该步的最后一个微批次（占用更多显存，Accelerate 文档对此有警告）。框架默认：FSDP1 上的 Hugging Face Trainer 为开启，torchtitan、torchtune 与 Composer 为关闭。仅适用于梯度分片的 FSDP</translation>
    </message>
    <message>
        <source>LoRA inside FSDP units</source>
        <translation>LoRA 位于 FSDP 单元内</translation>
    </message>
    <message>
        <source>LoRA adapters in the same FSDP1 unit as their block&apos;s frozen weights, with use_orig_params (Lightning Fabric 2.x with LitGPT, Composer): the whole block then gets gradients, so every block weight has a gradient too (more memory). Off (default): the adapters are units of their own (PEFT&apos;s wrap policy under Accelerate, torchtune, verl) or FSDP2. LoRA under FSDP only</source>
        <translation>LoRA 适配器与所在块的冻结权重同属一个 FSDP1 单元，并启用 use_orig_params（Lightning Fabric 2.x 配合 LitGPT、Composer）：整个块都会产生梯度，因此块内每个权重也都有梯度（占用更多显存）。关闭（默认）：适配器各自成为单元（Accelerate 下 PEFT 的封装策略、torchtune、verl），或使用 FSDP2。仅适用于 FSDP 下的 LoRA</translation>
    </message>
    <message>
        <source>FSDP2 fp32 upcast</source>
        <translation>FSDP2 fp32 上转</translation>
    </message>
    <message>
        <source>QLoRA without fp32 upcast</source>
        <translation>QLoRA 不做 fp32 上转</translation>
    </message>
    <message>
        <source>Logits held through backward</source>
        <translation>反向传播期间保留逻辑值</translation>
    </message>
    <message>
        <source>The training loop still holds the fp32 logits while the backward pass runs (prime-rl&apos;s SFT trainer before March 2026 deleted its own name for them but kept them in the model&apos;s output): 4 more bytes a logit at the loss (more memory). Off (default): the Hugging Face Trainer and torchtitan free them first. Unchunked loss only</source>
        <translation>反向传播运行时，训练循环仍持有 fp32 逻辑值（2026 年 3 月之前 prime-rl 的监督微调训练器删除了自己对它们的引用，但模型输出中仍保留着）：损失处每个逻辑值多占 4 字节（占用更多显存）。关闭（默认）：Hugging Face 的训练器和 torchtitan 会先释放它们。仅适用于不分块的损失</translation>
    </message>
    <message>
        <source>Key/value cache in training</source>
        <translation>训练时的键值缓存</translation>
    </message>
    <message>
        <source>The model&apos;s forward pass builds and returns its key/value cache while training, as Transformers does by default when the loop checkpoints the layers itself (llama-recipes before September 2023): each checkpointed layer&apos;s keys and values stay in memory until the loss, and through the backward pass when the loop also holds the logits (more memory). Off (default): the Hugging Face Trainer&apos;s gradient checkpointing turns the cache off. Hugging Face models only</source>
        <translation>训练时模型的前向传播构建并返回键值缓存：训练循环自行对各层做检查点时，Transformers 默认如此（2023 年 9 月之前的 llama-recipes）。每个做检查点的层的键和值一直留在显存中直到计算损失；若训练循环还持有逻辑值，则一直保留到反向传播结束（占用更多显存）。关闭（默认）：Hugging Face 训练器的梯度检查点会关闭该缓存。仅适用于 Hugging Face 模型</translation>
    </message>
    <message>
        <source>Checkpoint early stop</source>
        <translation>检查点提前停止</translation>
    </message>
    <message>
        <source>Recompute modules</source>
        <translation>重计算模块</translation>
    </message>
    <message>
        <source>Megatron --recompute-modules with selective recompute: the parts of each layer that are re-run in the backward pass instead of kept (less memory, slower steps). Attention core: the score matrix (nothing to drop with flash attention). Norms: the norm outputs not fused into a linear layer. Expert activation: the experts&apos; activation output. MLA up projections. Dense MLP. MoE layer: the whole MoE layer, its all-to-all included. Shared experts. None ticked: Megatron&apos;s default, the attention core. Megatron only, with selective recompute</source>
        <translation>Megatron --recompute-modules（选择性重计算）：每层中在反向传播时重新计算而不保存的部分（显存更少，步骤更慢）。注意力核心：注意力分数矩阵（使用 FlashAttention 时无可省）。归一化层：未融合进线性层的归一化输出。专家激活函数：专家的激活输出。MLA 上投影。稠密 MLP。MoE 层：整个 MoE 层，包括其全对全通信。共享专家。不勾选：Megatron 的默认值，即注意力核心。仅 Megatron，且需选择性重计算</translation>
    </message>
    <message>
        <source>LoRA layer</source>
        <translation>LoRA 层</translation>
    </message>
    <message>
        <source>Run tensor-parallel collectives under the matrix multiplies (Megatron/Transformer Engine --tp-comm-overlap, torchtitan enable_async_tensor_parallel; needs sequence parallelism). Framework default: on for Megatron with sequence parallelism, off for torchtitan</source>
        <translation>与矩阵乘法重叠执行张量并行集合通信（Megatron/Transformer Engine --tp-comm-overlap、torchtitan enable_async_tensor_parallel；需要序列并行）。框架默认：Megatron 开启序列并行时开启，torchtitan 关闭</translation>
    </message>
    <message>
        <source>Parallel residual</source>
        <translation>并行残差</translation>
    </message>
    <message>
        <source>GPT-NeoX gpt-j-residual (default off in GPT-NeoX; the Pythia and GPT-NeoX-20B configs turn it on): attention and MLP both read the layer input and their outputs are added to it together, so each layer runs one tensor-parallel all-reduce instead of two in the forward pass and in its recomputation (the backward pass still runs two): faster steps with tensor parallelism. GPT-NeoX only</source>
        <translation>GPT-NeoX gpt-j-residual（GPT-NeoX 默认关闭；Pythia 和 GPT-NeoX-20B 的配置会打开它）：注意力和 MLP 都读取层的输入，两者的输出一起加回到输入上，因此每层在前向和重计算中只做一次张量并行 all-reduce，而不是两次（反向仍为两次）：开启张量并行时单步更快。仅用于 GPT-NeoX</translation>
    </message>
    <message>
        <source>AdamW implementation</source>
        <translation>AdamW 实现</translation>
    </message>
    <message>
        <source>EP all-to-all overlap</source>
        <translation>专家并行全对全通信重叠</translation>
    </message>
    <message>
        <source>Megatron --overlap-moe-expert-parallel-comm --delay-wgrad-compute: one micro-batch&apos;s layer forward runs beside another&apos;s backward, so the expert all-to-all hides behind their attention and expert GEMMs (faster steps). Needs expert parallelism, the all-to-all or flex dispatcher, no full recompute, no MoE-layer recompute and, with a pipeline, interleaving (VPP above 1). On Hopper and older GPUs the tensor-parallel overlap is then off unless you set it. Off: Megatron&apos;s default. Megatron only</source>
        <translation>Megatron --overlap-moe-expert-parallel-comm --delay-wgrad-compute：一个微批次的层前向与另一个微批次的反向同时运行，专家全对全通信隐藏在它们的注意力和专家矩阵乘法之下（步骤更快）。需要专家并行、全对全或 flex 分发器、不使用完全重计算、不重计算 MoE 层，有流水线时还需交错调度（VPP 大于 1）。在 Hopper 及更早的 GPU 上，除非你自行设置，张量并行通信重叠随之关闭。关闭：Megatron 的默认值。仅 Megatron</translation>
    </message>
    <message>
        <source>Which allocator figure a measured peak is compared with: torch.cuda.max_memory_reserved (default) or max_memory_allocated, on the busiest rank or on the last pipeline rank (the one Megatron-LM logs its memory from). What fits is judged on the whole card either way</source>
        <translation>实测峰值与分配器的哪个数字比较：torch.cuda.max_memory_reserved（默认）或 max_memory_allocated，取最忙的进程或流水线最后一个进程（Megatron-LM 从该进程记录显存）。能否放下都按整张卡判断</translation>
    </message>
    <message>
        <source>Optimizer in backward</source>
        <translation>反向中更新优化器</translation>
    </message>
    <message>
        <source>tool default (fused; verl: unfused)</source>
        <translation>工具默认（融合；verl：非融合）</translation>
    </message>
    <message>
        <source>per GPU</source>
        <translation>每卡</translation>
    </message>
    <message>
        <source>torchtune optimizer_in_bwd (default off): each parameter is stepped as soon as its gradient is ready and the gradient is freed, so no full set of gradients is held; no gradient accumulation</source>
        <translation>torchtune optimizer_in_bwd（默认关闭）：每个参数的梯度一算出就立即更新该参数并释放梯度，因此不保存整套梯度；不能梯度累积</translation>
    </message>
    <message>
        <source>Activation offload</source>
        <translation>激活值卸载</translation>
    </message>
    <message>
        <source>torchtune enable_activation_offloading (default off): saved activations go to CPU memory and come back for the backward pass</source>
        <translation>torchtune enable_activation_offloading（默认关闭）：保存的激活值放到 CPU 内存，反向传播时再取回</translation>
    </message>
    <message>
        <source>Chunked loss</source>
        <translation>分块损失</translation>
    </message>
    <message>
        <source>torchtune CEWithChunkedOutputLoss (default off here): the output layer and the cross-entropy run in 8 chunks, so the full logits are never held at once</source>
        <translation>torchtune CEWithChunkedOutputLoss（此处默认关闭）：输出层和交叉熵分 8 块计算，因此从不同时保存完整的 logits</translation>
    </message>
    <message>
        <source>torch.compile</source>
        <translation>torch.compile</translation>
    </message>
    <message>
        <source>Without mixed precision</source>
        <translation>不用混合精度</translation>
    </message>
    <message>
        <source>LoRA on the Hugging Face Trainer run without mixed precision (no bf16 or fp16 flag, the model loaded in bf16): there is no autocast, so PEFT&apos;s fp32 adapters run entirely in fp32: each adapted layer copies its input to fp32 and adds an fp32 output to the layer&apos;s (slower); under Accelerate&apos;s FSDP1 FSDP casts nothing either. Off (default): the bf16 or fp16 flag. LoRA on the Hugging Face stack without DeepSpeed only</source>
        <translation>用 Hugging Face Trainer 做 LoRA 且不开混合精度（未开启 bf16 或 fp16，模型以 bf16 加载）：此时没有自动混合精度，PEFT 的 fp32 适配器全程以 fp32 运行：每个带适配器的层都要把输入复制为 fp32，并把 fp32 输出加到该层输出上（更慢）；在 Accelerate 的 FSDP1 下，FSDP 也不做任何类型转换。关闭（默认）：开启 bf16 或 fp16。仅适用于不使用 DeepSpeed 的 Hugging Face 技术栈上的 LoRA</translation>
    </message>
    <message>
        <source>Compiled loss</source>
        <translation>编译损失函数</translation>
    </message>
    <message>
        <source>With torch.compile, compile the cross-entropy with the model (torchtitan compile.components, [&quot;model&quot;, &quot;loss&quot;] since April 2025): it keeps only the 16-bit logits instead of their fp32 copies. Framework default: on for torchtitan (FSDP2), off elsewhere; no effect without torch.compile</source>
        <translation>开启 torch.compile 时，把交叉熵损失与模型一起编译（torchtitan 自 2025 年 4 月起默认同时编译模型与损失函数）：只保留 16 位 logits，不再保留其 fp32 副本。框架默认：torchtitan（FSDP2）开启，其他框架关闭；未开启 torch.compile 时无效</translation>
    </message>
    <message>
        <source>LoRA dropout</source>
        <translation>LoRA 丢弃率</translation>
    </message>
    <message>
        <source>Empty the cache every</source>
        <translation>清空缓存间隔</translation>
    </message>
    <message>
        <source>Hugging Face TrainingArguments torch_empty_cache_steps (default: never): torch.cuda.empty_cache() every N steps. With samples of varying length, the cached memory beside the longest batch is then an ordinary batch&apos;s, not an earlier long one&apos;s (less reserved memory). Hugging Face-based tools only</source>
        <translation>Hugging Face 训练参数 torch_empty_cache_steps（默认：从不）：每 N 步调用一次 torch.cuda.empty_cache()。样本长度不一时，最长批次旁缓存的显存就只是一个普通批次留下的，而不是更早某个长批次的（预留显存更少）。仅限基于 Hugging Face 的工具</translation>
    </message>
    <message>
        <source>never (default)</source>
        <translation>从不（默认）</translation>
    </message>
    <message>
        <source>no bf16 or fp16 flag: adapters run in fp32</source>
        <translation>未开启 bf16 或 fp16：适配器以 fp32 运行</translation>
    </message>
    <message>
        <source>NeMo AutoModel (LinearLoRA)</source>
        <translation>NeMo AutoModel 自带 LoRA 层</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Accelerate 1.12 and earlier cast the whole model to fp32 when it prepares FSDP2 with bf16 or fp16 mixed precision, so each GPU&apos;s share of a LoRA run&apos;s frozen weights takes 4 bytes a parameter instead of 2 (more memory); the gathered copy the layers run with stays 16-bit. Off (default): Accelerate 1.13 and later (only trainable weights are cast), torchtitan and torchtune. LoRA on FSDP2 with full sharding only</source>
        <translation>Accelerate 1.12 及更早版本在以 bf16 或 fp16 混合精度准备 FSDP2 时，会把整个模型转为 fp32，因此每块 GPU 上 LoRA 训练的冻结权重分片每个参数占 4 字节而不是 2 字节（占用更多显存）；各层运行时使用的聚合副本仍为 16 位。关闭（默认）：Accelerate 1.13 及以后（只转换可训练权重）、torchtitan 和 torchtune。仅适用于完全分片的 FSDP2 上的 LoRA</translation>
    </message>
    <message>
        <source>PEFT LoraConfig lora_dropout. Empty: the framework&apos;s own default (0.0, no dropout layer; ms-swift and Megatron-SWIFT: 0.05), for the search&apos;s other frameworks too. Above 0 each adapted linear layer runs a dropout pass on its input (slower steps) and keeps its own dropped copy of that input for the backward pass (more memory); from 0 to below 1</source>
        <translation>PEFT LoraConfig lora_dropout。留空：取所用框架自身的默认值（0.0，没有 dropout 层；ms-swift 和 Megatron-SWIFT：0.05），方案搜索中的其他框架也各取其默认值。大于 0 时，每个加了适配器的线性层都要对输入做一次 dropout（单步更慢），并为反向传播保留自己那份经过 dropout 的输入副本（占用更多显存）；取值从 0 到小于 1</translation>
    </message>
    <message>
        <source>The QLoRA loader skips PEFT&apos;s preparation step that casts the weights that are not 4-bit (norms, embeddings, output layer) to fp32, as fms-acceleration&apos;s bitsandbytes plugin does. The layers then keep their inputs in 16 bits (faster, less memory). Off (default): the Hugging Face Trainer and TRL cast them. QLoRA on those tools only (Axolotl casts them back to 16 bits by itself)</source>
        <translation>QLoRA 加载器跳过 PEFT 的准备步骤（该步骤把非 4 位的权重——归一化层、嵌入层、输出层——转为 fp32），fms-acceleration 的 bitsandbytes 插件即是如此。各层的输入因此保持 16 位（更快，占用显存更少）。关闭（默认）：Hugging Face Trainer 和 TRL 会做这一转换。仅适用于这些工具上的 QLoRA（Axolotl 自己会把它们转回 16 位）</translation>
    </message>
    <message>
        <source>Non-reentrant torch.utils.checkpoint stops the recompute once the backward&apos;s tensors are re-made, so each layer&apos;s last matmul (the MLP&apos;s output projection) is not run again: about a third of the MLP&apos;s recompute. Framework default: off for torchtitan (PyTorch FSDP2, full training: off since August 2025), on elsewhere (PyTorch 2.1 and later). Turn it on for torchtitan runs before September 2025, off for PyTorch 1.13 and 2.0. No effect under torch.compile (the compiler never re-runs that matmul) or with a reentrant checkpoint, Megatron, DeepSpeed or Unsloth</source>
        <translation>非可重入的 PyTorch 检查点在反向所需的张量重新算出后即停止重计算，每层最后一个矩阵乘（MLP 的输出投影）不再运行：约省去 MLP 重计算的三分之一。框架默认：torchtitan（PyTorch FSDP2，全参数训练）为关闭（2025 年 8 月起），其余为开启（PyTorch 2.1 及以后）。2025 年 9 月以前的 torchtitan 运行请开启，PyTorch 1.13 与 2.0 请关闭。启用 torch.compile 时无作用（编译器本就不会重新计算该矩阵乘）；可重入检查点、Megatron、DeepSpeed 与 Unsloth 下亦无作用</translation>
    </message>
    <message>
        <source>Which code runs each adapted linear layer. PEFT / torchtune (default): the adapter&apos;s output is scaled by alpha / rank as a full-width tensor, forward and backward. NeMo AutoModel (its LinearLoRA): the scaling multiplies the rank-wide product instead, and its dropout runs on the adapter&apos;s output (less memory traffic, faster steps). NeMo AutoModel, Triton kernels: its TritonLinearLoRA (use_triton: true; AutoModel turns it off whenever Transformer Engine is installed), whose backward reads each layer&apos;s input once more. LitGPT before v0.3.1: with LoRA on query and value only, every forward rebuilds an index tensor from a Python list and copies it to the GPU (host time, about 1 ms a layer for a 7B model). LoRA and QLoRA on Hugging Face models, without DoRA</source>
        <translation>每个加了适配器的线性层由哪段代码执行。PEFT / torchtune（默认）：适配器输出按 α / 秩 缩放，缩放作用在整宽张量上，前向和反向都是如此。NeMo AutoModel（其默认 LoRA 层）：缩放改为乘在秩宽度的中间结果上，dropout 作用在适配器输出上（显存读写更少，单步更快）。NeMo AutoModel，Triton 内核：其 Triton 版 LoRA 层（use_triton: true；只要装了 Transformer Engine，AutoModel 就会关闭它），反向传播会多读一次每层的输入。LitGPT v0.3.1 之前的版本：LoRA 只加在 query 和 value 上时，每次前向都要从 Python 列表重建一个索引张量并拷贝到 GPU（主机端耗时，7B 模型每层约 1 毫秒）。仅适用于 Hugging Face 模型上的 LoRA 和 QLoRA，且不含 DoRA</translation>
    </message>
    <message>
        <source>Overlap gradient reduce</source>
        <translation>梯度归约重叠</translation>
    </message>
    <message>
        <source>Reduce gradients during the backward pass (Megatron --overlap-grad-reduce, DDP buckets, FSDP2, DeepSpeed overlap_comm). Framework default: on for Megatron recipes, DDP and FSDP2; DeepSpeed on for ZeRO-3 only</source>
        <translation>在反向传播期间归约梯度（Megatron --overlap-grad-reduce、DDP 分桶、FSDP2、DeepSpeed overlap_comm）。框架默认：Megatron 配方、DDP 和 FSDP2 开启；DeepSpeed 仅 ZeRO-3 开启</translation>
    </message>
    <message>
        <source>Overlap weight gather</source>
        <translation>权重收集重叠</translation>
    </message>
    <message>
        <source>Gather sharded weights under compute (Megatron --overlap-param-gather, FSDP2 prefetch, DeepSpeed ZeRO-3 prefetch). Framework default: on with Megatron&apos;s distributed optimizer and FSDP2 ZeRO-2/3; DeepSpeed as the gradient reduce</source>
        <translation>与算力重叠收集分片的权重（Megatron --overlap-param-gather、FSDP2 预取、DeepSpeed ZeRO-3 预取）。框架默认：Megatron 分布式优化器和 FSDP2 ZeRO-2/3 开启；DeepSpeed 与梯度归约相同</translation>
    </message>
    <message>
        <source>Overlap tensor-parallel communication</source>
        <translation>张量并行通信重叠</translation>
    </message>
    <message>
        <source>Overlap pipeline sends</source>
        <translation>流水线收发重叠</translation>
    </message>
    <message>
        <source>Run the pipeline&apos;s sends and receives under compute (Megatron, on by default with the interleaved schedule); off for the other frameworks</source>
        <translation>与算力重叠执行流水线的发送和接收（Megatron 交错调度时默认开启）；其他框架关闭</translation>
    </message>
    <message>
        <source>DeepSpeed BF16 optimizer</source>
        <translation>DeepSpeed BF16 优化器</translation>
    </message>
    <message>
        <source>Whether DeepSpeed&apos;s BF16 optimizer trains your model: in bf16 with ZeRO stage 0 it keeps fp32 gradients and, after every micro-batch, adds the bf16 gradients into them, a pass over memory that grows with the micro-batches per step. Turn it on for a Megatron-DeepSpeed run (BLOOM&apos;s setup). Framework default: on for DeepSpeed and GPT-NeoX in bf16 with ZeRO 0, off otherwise</source>
        <translation>是否由 DeepSpeed 的 BF16 优化器训练你的模型：在 BF16 且 ZeRO 阶段 0 时，它保留 FP32 梯度，并在每个微批次之后把 BF16 梯度累加进去，这一遍显存读写随每步的微批次数增长。Megatron-DeepSpeed 的运行（BLOOM 的配置）请打开。框架默认：DeepSpeed 和 GPT-NeoX 在 BF16 且 ZeRO 0 时开，其他情况关</translation>
    </message>
    <message>
        <source>PyTorch torch.optim.AdamW fused=True or foreach=True (torchtitan optimizer.implementation). Fused: one kernel updates the weights and both moments. Foreach: eight multi-tensor passes over the fp32 states, about 2.7 times the memory traffic of the optimizer step (slower steps). Tool default: fused, as torchtitan since February 2025 (PR #881) and the fused Adam of Megatron and DeepSpeed; torchtitan before it ran foreach; verl&apos;s RL workers build AdamW without fused, so its steps make the eight passes. Foreach also holds one more copy of the second moments while the optimizer steps (more memory; the Hugging Face Trainer ran foreach before its fused default for PyTorch 2.8). AdamW only</source>
        <translation>PyTorch AdamW 的两种实现（torchtitan 的优化器实现设置）。融合：一个内核同时更新权重和两个动量。多张量遍历（torch._foreach_addcdiv_ 等内核）：对 fp32 状态做八次遍历，优化器步的显存读写量约为融合实现的 2.7 倍（步更慢）。工具默认：融合，与 2025 年 2 月以来的 torchtitan 以及 Megatron 和 DeepSpeed 的融合 Adam 相同；此前的 torchtitan 用多张量遍历；verl 的强化学习进程构建 AdamW 时不开融合，每次优化器步都做这八次遍历。多张量遍历在优化器步期间还多占一份二阶动量大小的显存（Hugging Face Trainer 在 PyTorch 2.8 起默认融合之前用多张量遍历）。仅适用于 AdamW</translation>
    </message>
    <message>
        <source>Interleaved pipeline (VPP)</source>
        <translation>交错流水线（VPP）</translation>
    </message>
    <message>
        <source>Megatron --num-virtual-stages-per-pipeline-rank: each GPU holds this many smaller pipeline stages, which shrinks the pipeline bubble but sends more. Default 1 (no interleaving); the layers of each stage must divide evenly. The automatic layout keeps it and tries others</source>
        <translation>Megatron --num-virtual-stages-per-pipeline-rank：每张卡持有这么多个更小的流水线阶段，流水线气泡变小，但发送更多。默认 1（不交错）；每个阶段的层数必须能整除。自动布局保留此值，并尝试其他值</translation>
    </message>
    <message>
        <source>Offload parameters</source>
        <translation>卸载参数</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO-3 offload_param / FSDP CPUOffload with offload_params: weights and gradients live in CPU memory too (default off). Needs ZeRO stage 3. RL on FSDP (verl param_offload, EasyR1 offload_params; default off): the actor&apos;s weights move to CPU memory between phases, on the GPUs while it trains and away while vLLM generates, copied over PCIe every step</source>
        <translation>DeepSpeed ZeRO-3 的 offload_param / FSDP 的 CPUOffload（offload_params）：权重和梯度也放在 CPU 内存（默认关闭）。需要 ZeRO 阶段 3。FSDP 上的强化学习（verl 的 param_offload、EasyR1 的 offload_params；默认关闭）：策略模型的权重在各阶段之间移到 CPU 内存，训练时在 GPU 上，vLLM 生成时离开 GPU，每步都经 PCIe 拷贝</translation>
    </message>
    <message>
        <source>MoE token dispatcher</source>
        <translation>MoE token 分发器</translation>
    </message>
    <message>
        <source>Megatron --moe-token-dispatcher-type, for MoE models. All-to-all (the default, as Megatron-Bridge sets it): each token&apos;s routed copies go to their experts&apos; GPUs. All-gather: every GPU gathers the expert group&apos;s tokens. Flex (DeepEP or HybridEP kernels): a token crosses the network once per remote node and is forwarded over NVLink. Megatron only</source>
        <translation>Megatron 的 --moe-token-dispatcher-type，用于 MoE 模型。全对全（默认，Megatron-Bridge 即如此设置）：每个 token 的各路由副本发往其专家所在的 GPU。all-gather：每个 GPU 收集整个专家组的 token。flex（DeepEP 或 HybridEP 内核）：一个 token 对每个远端节点只经网络发送一次，再经 NVLink 转发。仅适用于 Megatron</translation>
    </message>
    <message>
        <source>all-to-all</source>
        <translation>全对全</translation>
    </message>
    <message>
        <source>all-gather</source>
        <translation>all-gather（全收集）</translation>
    </message>
    <message>
        <source>flex (DeepEP / HybridEP)</source>
        <translation>flex（DeepEP / HybridEP）</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Your own model FLOPs utilisation, from 0 to 1 (e.g. 0.4 from a run you measured): it replaces the modelled step time. Empty (default): the time model&apos;s own estimate</source>
        <translation>你自己的模型算力利用率（MFU），取值 0 到 1（例如实测运行得到的 0.4）：它取代模型估算的单步时间。留空（默认）：使用时间模型自身的估算</translation>
    </message>
    <message>
        <source>CUDA context</source>
        <translation>CUDA 上下文</translation>
    </message>
    <message>
        <source>Memory the CUDA context, NCCL and library workspaces take on each GPU, outside PyTorch&apos;s allocator. Empty: 0.75 GiB</source>
        <translation>CUDA 上下文、NCCL 和各库工作区在每张卡上占用的显存，不经过 PyTorch 分配器。留空：0.75 GiB</translation>
    </message>
    <message>
        <source>Fragmentation</source>
        <translation>碎片</translation>
    </message>
    <message>
        <source>Reserved memory PyTorch&apos;s caching allocator cannot reuse, as a share of the rest, from 0 to 1. Empty: 0.05 (a judgement; expandable segments leave almost none)</source>
        <translation>PyTorch 缓存分配器已预留但无法复用的显存，占其余部分的比例，取值 0 到 1。留空：0.05（经验判断；可扩展内存段几乎没有碎片）</translation>
    </message>
    <message>
        <source>Measured memory figure</source>
        <translation>实测显存指标</translation>
    </message>
    <message>
        <source>one flat all-gather per module (v0.5.5 and later)</source>
        <translation>每个模块一次扁平全收集（v0.5.5 及以后）</translation>
    </message>
    <message>
        <source>one all-gather per parameter (v0.3.13 to v0.5.4)</source>
        <translation>每个参数一次全收集（v0.3.13 至 v0.5.4）</translation>
    </message>
    <message>
        <source>ZeRO-3 gather</source>
        <translation>ZeRO-3 收集方式</translation>
    </message>
    <message>
        <source>How your DeepSpeed version gathers ZeRO-3 weights. Default: one flat all-gather per module fetch (v0.5.5 and later, PR #1188). Older versions (v0.3.13 to v0.5.4) run one all-gather per parameter after a device sync and reduce-scatter gradients per parameter, with nothing overlapped: choose it only for a run on those versions. DeepSpeed plans only</source>
        <translation>你的 DeepSpeed 版本如何收集 ZeRO-3 权重。默认：每次取用一个模块时做一次扁平全收集（v0.5.5 及以后）。更早的版本（v0.3.13 至 v0.5.4）先同步设备，再对每个参数单独全收集，梯度也逐个参数归约分散，全都不与计算重叠：只有在这些版本上运行时才选它。仅用于 DeepSpeed 方案</translation>
    </message>
    <message>
        <source>Reentrant checkpoint</source>
        <translation>可重入检查点</translation>
    </message>
    <message>
        <source>embedding and loss count as a layer each</source>
        <translation>嵌入层和损失各算作一层</translation>
    </message>
    <message>
        <source>Pipeline split</source>
        <translation>流水线切分</translation>
    </message>
    <message>
        <source>Megatron --account-for-embedding-in-pipeline-split and --account-for-loss-in-pipeline-split: the first and last pipeline stages hold one layer fewer, because the embedding and the output layer count as a layer each. Off (Megatron&apos;s default): the layers are split evenly and the last stage also runs the output layer, which the others wait for. Megatron only</source>
        <translation>Megatron 的 --account-for-embedding-in-pipeline-split 与 --account-for-loss-in-pipeline-split：嵌入层和输出层各算作一层，因此第一级和最后一级流水线各少放一层。关闭（Megatron 默认）：各层平均切分，最后一级还要运行输出层，其他各级需等待它。仅适用于 Megatron</translation>
    </message>
    <message>
        <source>CUDA graphs</source>
        <translation>CUDA 图</translation>
    </message>
    <message>
        <source>Megatron --cuda-graph-impl transformer_engine with --cuda-graph-scope: the captured parts of each layer (the attention block; the MoE router with the dispatcher&apos;s preprocess) replay as one CUDA graph, so the CPU no longer issues their kernels one by one. It matters where the CPU limits the step: MoE layers with small experts, whose dispatcher waits for the GPU every layer. None (Megatron&apos;s default): no graphs. Whole layer: for an MoE model only with padding to capacity. Not with full recompute. Megatron only</source>
        <translation>Megatron --cuda-graph-impl transformer_engine 配合 --cuda-graph-scope：每层被捕获的部分（注意力块；MoE 路由器及分发器的预处理）作为一个 CUDA 图重放，CPU 不再逐个发射这些内核。在 CPU 限制步长时才有影响：专家较小的 MoE 层，其分发器每层都要等待 GPU。无（Megatron 默认）：不使用 CUDA 图。整层：MoE 模型仅在填充到容量时可用。不能与完全重计算同用。仅 Megatron</translation>
    </message>
    <message>
        <source>none (Megatron&apos;s default)</source>
        <translation>无（Megatron 默认）</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>MoE router and preprocess</source>
        <translation>MoE 路由器和预处理</translation>
    </message>
    <message>
        <source>attention, MoE router and preprocess</source>
        <translation>注意力、MoE 路由器和预处理</translation>
    </message>
    <message>
        <source>whole layer (MoE: with padding to capacity)</source>
        <translation>整层（MoE：需填充到容量）</translation>
    </message>
    <message>
        <source>dropless (Megatron&apos;s default)</source>
        <translation>不丢弃（Megatron 默认）</translation>
    </message>
    <message>
        <source>× even share</source>
        <translation>× 平均份额</translation>
    </message>
    <message>
        <source>pad every expert&apos;s input to its capacity</source>
        <translation>把每个专家的输入填充到其容量</translation>
    </message>
    <message>
        <source>MoE capacity factor</source>
        <translation>MoE 容量因子</translation>
    </message>
    <message>
        <source>Megatron --moe-expert-capacity-factor: each expert takes at most this many times its even share of the routed tokens and drops the rest. Empty (Megatron&apos;s default): dropless. Megatron only</source>
        <translation>Megatron --moe-expert-capacity-factor：每个专家最多接收其平均份额这么多倍的路由 token，其余丢弃。留空（Megatron 默认）：不丢弃。仅 Megatron</translation>
    </message>
    <message>
        <source>Megatron --moe-pad-expert-input-to-capacity: every expert&apos;s input is padded to its capacity, so the shapes never change, the dispatcher no longer waits for the token counts every layer and the whole layer can be a CUDA graph; padded rows cost GEMM time. Needs a capacity factor. Megatron only</source>
        <translation>Megatron --moe-pad-expert-input-to-capacity：每个专家的输入都填充到其容量，形状固定，分发器不再每层等待 token 计数，整层可以成为一个 CUDA 图；填充的行也要耗费矩阵乘法时间。需要设置容量因子。仅 Megatron</translation>
    </message>
    <message>
        <source>embedding kept gathered (torchtitan before July 2025)</source>
        <translation>嵌入层一直保持聚合（2025 年 7 月之前的 torchtitan）</translation>
    </message>
    <message>
        <source>Embedding in the root unit</source>
        <translation>嵌入层位于根单元</translation>
    </message>
    <message>
        <source>torchtitan before commit 83e694105 (July 2025) wrapped only the blocks, so the token embedding shared FSDP2&apos;s root unit with the final norm and output layer. FSDP2 never reshards the root after forward, so the embedding and output stay gathered until the end of backward (more memory). Off (default): torchtitan since July 2025, the embedding its own unit. torchtitan FSDP2 only</source>
        <translation>在 2025 年 7 月的提交 83e694105 之前，torchtitan 只对各个块单独做分片封装，因此词嵌入层与最终归一化层、输出层同属 FSDP2 的根单元。FSDP2 在前向之后从不对根单元重新分片，所以嵌入层和输出层一直保持聚合，直到反向结束（占用更多显存）。关闭（默认）：2025 年 7 月以后的 torchtitan，嵌入层自成一个单元。仅适用于 torchtitan FSDP2</translation>
    </message>
    <message>
        <source>bitsandbytes 0.41 to 0.43.1 (before July 2024)</source>
        <translation>bitsandbytes 0.41 至 0.43.1（2024 年 7 月以前）</translation>
    </message>
    <message>
        <source>Old 4-bit layers</source>
        <translation>旧版 4 位层</translation>
    </message>
    <message>
        <source>use_reentrant of torch.utils.checkpoint for gradient checkpointing (HF gradient_checkpointing_kwargs, LLaMA-Factory use_reentrant_gc). Off (non-reentrant) adds about 1 ms of host time per layer and micro-batch. Framework default: off for transformers 5 and TRL, on for LLaMA-Factory and Axolotl; Megatron, Unsloth and torchtitan/torchtune have no such choice</source>
        <translation>梯度检查点所用 torch 检查点函数的 use_reentrant（HF gradient_checkpointing_kwargs，LLaMA-Factory use_reentrant_gc）。关闭（非可重入）时每层每个微批次约多 1 ms 主机时间。框架默认：transformers 5 与 TRL 为关闭，LLaMA-Factory 与 Axolotl 为开启；Megatron、Unsloth 与 torchtitan/torchtune 没有这个选项</translation>
    </message>
    <message>
        <source>loaded without torch_dtype (fp16 under bf16 training)</source>
        <translation>加载时未指定 torch_dtype（bf16 训练下以 fp16 存放）</translation>
    </message>
    <message>
        <source>4-bit model stored in fp16</source>
        <translation>4 位模型以 fp16 存放</translation>
    </message>
    <message>
        <source>A 4-bit model loaded without torch_dtype keeps its embeddings, norms and output layer in fp16 (transformers&apos; bitsandbytes default), as ms-swift v1 did for Qwen-1 before January 2024. Under bf16 training the output layer is copied to bf16 on every step and each 4-bit layer makes its own bf16 copy of its input (more memory). Off (default): the model is loaded in the training dtype. QLoRA only</source>
        <translation>加载时未指定 torch_dtype 的 4 位模型会把词嵌入、归一化层和输出层以 fp16 存放（transformers 的 bitsandbytes 默认行为），ms-swift v1 在 2024 年 1 月以前对 Qwen-1 就是这样。在 bf16 训练下，输出层每一步都会被复制一份 bf16，每个 4 位层也会各自复制一份 bf16 的输入（占用更多显存）。关闭（默认）：模型以训练精度加载。仅适用于 QLoRA</translation>
    </message>
    <message>
        <source>MoE padding</source>
        <translation>MoE 容量填充</translation>
    </message>
    <message>
        <source>Kept free per GPU</source>
        <translation>每卡预留显存</translation>
    </message>
    <message>
        <source>GiB each GPU keeps free beyond the estimate before a layout counts as fitting (default 2). The planning rule “memory headroom” is another check: it ranks plans with less free memory than the memory model&apos;s p75 error after the others</source>
        <translation>在估算之外每张 GPU 还要空出的 GiB，布局才算放得下（默认 2）。规划规则“显存余量”是另一项检查：空闲显存少于显存模型 p75 误差的方案排在其他方案之后</translation>
    </message>
    <message>
        <source>DeepSpeed auto sizes</source>
        <translation>DeepSpeed 自动尺寸</translation>
    </message>
    <message>
        <source>Whether your DeepSpeed config writes reduce_bucket_size, stage3_prefetch_bucket_size and stage3_param_persistence_threshold as &quot;auto&quot;, which Transformers and Accelerate fill from the model (hidden², 0.9·hidden², 10·hidden). Off: DeepSpeed&apos;s own defaults (500 million, 50 million and 100 thousand elements). Framework default: off for DeepSpeed alone, on for the Hugging Face-based tools. DeepSpeed ZeRO only</source>
        <translation>你的 DeepSpeed 配置是否把 reduce_bucket_size、stage3_prefetch_bucket_size 和 stage3_param_persistence_threshold 写成自动值，由 Transformers 和 Accelerate 按模型填入（hidden²、0.9·hidden²、10·hidden）。关：DeepSpeed 自己的默认值（5 亿、5000 万和 10 万个元素）。框架默认：单用 DeepSpeed 时关，基于 Hugging Face 的工具时开。仅用于 DeepSpeed ZeRO</translation>
    </message>
    <message>
        <source>all-to-all for the row-parallel adapters&apos; output</source>
        <translation>行并行适配器的输出改用全对全通信</translation>
    </message>
    <message>
        <source>the QKV projection&apos;s collectives not overlapped</source>
        <translation>QKV 投影的集合通信不做重叠</translation>
    </message>
    <message>
        <source>LoRA all-to-all</source>
        <translation>LoRA 的全对全通信</translation>
    </message>
    <message>
        <source>Megatron-Bridge LoRA a2a_experimental (default off; the MLPerf NeMo LoRA configs set LORA_A2A=1): with sequence parallelism, the row-parallel adapters (on the attention output and the second MLP linear) move their output to the sequence shard with one all-to-all instead of an all-gather (less traffic, faster steps). Megatron-Bridge LoRA only</source>
        <translation>Megatron-Bridge LoRA a2a_experimental（默认关闭；MLPerf 的 NeMo LoRA 配置设 LORA_A2A=1）：开启序列并行时，行并行适配器（注意力输出投影和 MLP 第二个线性层上的适配器）用一次全对全通信而不是 all-gather 把输出移到序列分片上（通信量更少，单步更快）。仅用于 Megatron-Bridge 的 LoRA</translation>
    </message>
    <message>
        <source>No overlap for the QKV projection</source>
        <translation>QKV 投影不做通信重叠</translation>
    </message>
    <message>
        <source>Megatron-Core tp_comm_overlap_disable_qkv (default off; the NeMo 2 LoRA recipes and the MLPerf Llama 2 70B LoRA configs turn it on): the all-gather before the QKV projection and the reduce-scatter of its input gradient run without Transformer Engine&apos;s userbuffers overlap (slower steps); with Megatron-Bridge LoRA the QKV adapter then reuses the gathered input instead of gathering its own. Megatron-Core tools, with tensor-parallel overlap only</source>
        <translation>Megatron-Core tp_comm_overlap_disable_qkv（默认关闭；NeMo 2 的 LoRA 配方和 MLPerf Llama 2 70B LoRA 配置会打开它）：QKV 投影之前的 all-gather 及其输入梯度的 reduce-scatter 不再借助 Transformer Engine 的 userbuffers 重叠（单步更慢）；在 Megatron-Bridge LoRA 中，QKV 适配器因此直接复用已收集的输入，不再自己收集。仅用于 Megatron-Core 类工具，且需开启张量并行通信重叠</translation>
    </message>
</context>
<context>
    <name>TrainingPage</name>
    <message>
        <source>Training setup</source>
        <translation>训练设置</translation>
    </message>
    <message>
        <source>gradient accumulation must be at least 1</source>
        <translation>梯度累积步数至少为 1</translation>
    </message>
    <message>
        <source>2 · Training setup</source>
        <translation>2 · 训练设置</translation>
    </message>
    <message>
        <source>How the model is trained decides what each GPU must hold: weights, gradients, optimizer states and activations. Hover any field to see what it changes.</source>
        <translation>训练方式决定了每张 GPU 需要存放什么：权重、梯度、优化器状态和激活值。把鼠标悬停在任意字段上可查看它影响什么。</translation>
    </message>
    <message>
        <source>Method, precision and batch</source>
        <translation>方法、精度与批次</translation>
    </message>
    <message>
        <source>Objective: preference tuning and RL</source>
        <translation>训练目标：偏好对齐与强化学习</translation>
    </message>
    <message>
        <source>Parallel layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Pretraining and full fine-tuning train every weight (gradients and optimizer states for all of them); LoRA trains small adapters; QLoRA also stores the frozen base in 4 bits</source>
        <translation>预训练和全参微调会训练所有权重（每个权重都有梯度和优化器状态）；LoRA 只训练小型适配器；QLoRA 还会以 4 bit 存储冻结的基座模型</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Number format of weights and activations: bf16/fp16 halve memory against fp32; fp8 needs Hopper-class GPUs</source>
        <translation>权重和激活值的数值格式：bf16/fp16 显存比 fp32 减半；fp8 需要 Hopper 架构级别的 GPU</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>AdamW keeps two fp32 states per trainable weight (8 bytes); 8-bit Adam 2 bytes; SGD with momentum 4 bytes; Adafactor far less</source>
        <translation>AdamW 为每个可训练权重保存两个 fp32 状态（8 字节）；8-bit Adam 2 字节；带动量的 SGD 4 字节；Adafactor 少得多</translation>
    </message>
    <message>
        <source>Framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <source>Changes what is kept in memory (e.g. Megatron&apos;s fused kernels, DeepSpeed&apos;s fp32 master copy)</source>
        <translation>影响显存中保留的内容（例如 Megatron 的融合算子、DeepSpeed 的 fp32 主副本）</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Tokens per sample: activation memory grows with it (quadratically without flash attention)</source>
        <translation>每个样本的 token 数：激活显存随之增长（不用 flash attention 时按平方增长）</translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>Sequences per GPU per forward pass: activation memory grows linearly; larger is faster until memory runs out</source>
        <translation>每张 GPU 每次前向的序列数：激活显存线性增长；在显存用尽前，越大越快</translation>
    </message>
    <message>
        <source>Pipeline micro-batch</source>
        <translation>流水线微批次</translation>
    </message>
    <message>
        <source>torchtitan with pipeline parallelism splits each GPU&apos;s batch into micro-batches of this many sequences (pipeline_parallel_microbatch_size); empty: torchtitan&apos;s default, 1</source>
        <translation>torchtitan 启用流水线并行时，会把每张 GPU 的批次拆成若干个微批次，每个含这么多条序列（pipeline_parallel_microbatch_size）；留空：torchtitan 默认值 1</translation>
    </message>
    <message>
        <source>Batch given as</source>
        <translation>批次设定方式</translation>
    </message>
    <message>
        <source>Give the global batch (sequences per optimizer step) or the gradient-accumulation steps</source>
        <translation>给出全局批次（每个优化器步骤的序列数）或梯度累积步数</translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation>全局批次</translation>
    </message>
    <message>
        <source>Sequences per optimizer step over all GPUs = micro-batch × data-parallel × accumulation; empty: no accumulation</source>
        <translation>所有 GPU 每个优化器步骤的序列数 = 微批次 × 数据并行度 × 累积步数；留空：不累积</translation>
    </message>
    <message>
        <source>Gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>Micro-batches summed before each optimizer step: a bigger batch without more memory</source>
        <translation>每个优化器步骤前累加的微批次数：不增加显存就能用更大的批次</translation>
    </message>
    <message>
        <source>Activation recompute</source>
        <translation>激活重计算</translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation>融合注意力</translation>
    </message>
    <message>
        <source>Fused attention that never stores the seq×seq score matrix: big memory saving at long sequences</source>
        <translation>融合的注意力算子，从不存储 seq×seq 分数矩阵：长序列下大幅节省显存</translation>
    </message>
    <message>
        <source>Attention kernel</source>
        <translation>注意力内核</translation>
    </message>
    <message>
        <source>Which fused attention runs: FlashAttention-2 reaches about a third of the BF16 peak on Hopper, cuDNN / FlashAttention-3 more; automatic: the framework&apos;s default (Megatron cuDNN, torchtitan FlashAttention-2 on Hopper, cuDNN on Blackwell)</source>
        <translation>运行哪种融合注意力：FlashAttention-2 在 Hopper 上约达到 BF16 峰值的三分之一，cuDNN / FlashAttention-3 更高；自动：框架默认（Megatron 用 cuDNN，torchtitan 在 Hopper 上用 FlashAttention-2、在 Blackwell 上用 cuDNN）</translation>
    </message>
    <message>
        <source>FSDP version</source>
        <translation>FSDP 版本</translation>
    </message>
    <message>
        <source>Expandable segments</source>
        <translation>可扩展内存段</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>Rank of the adapters: trainable parameters grow linearly with it</source>
        <translation>适配器的秩：可训练参数量随之线性增长</translation>
    </message>
    <message>
        <source>LoRA targets</source>
        <translation>LoRA 目标层</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>训练目标</translation>
    </message>
    <message>
        <source>Beta / KL coefficient</source>
        <translation>Beta / KL 系数</translation>
    </message>
    <message>
        <source>DPO beta or the RL KL coefficient; GRPO with beta 0 loads no reference model (TRL default)</source>
        <translation>DPO 的 beta 或强化学习的 KL 系数；GRPO 在 beta 为 0 时不加载参考模型（TRL 默认）</translation>
    </message>
    <message>
        <source>Reference model</source>
        <translation>参考模型</translation>
    </message>
    <message>
        <source>A separate frozen 16-bit copy (sharded by ZeRO-3/FSDP), the LoRA policy&apos;s own base with adapters off, log-probabilities precomputed before training, or none</source>
        <translation>单独的冻结 16 位副本（由 ZeRO-3/FSDP 切分）、关闭适配器的 LoRA 策略自身基座、训练前预先算好的对数概率，或不需要</translation>
    </message>
    <message>
        <source>Offload frozen models</source>
        <translation>卸载冻结模型</translation>
    </message>
    <message>
        <source>Reference and reward models in CPU memory, streamed layer by layer (OpenRLHF --ref_reward_offload)</source>
        <translation>参考模型和奖励模型放在 CPU 内存中，逐层传输（OpenRLHF --ref_reward_offload）</translation>
    </message>
    <message>
        <source>Group size</source>
        <translation>组大小</translation>
    </message>
    <message>
        <source>GRPO: completions sampled per prompt</source>
        <translation>GRPO：每个提示采样的回答数</translation>
    </message>
    <message>
        <source>Rollout length</source>
        <translation>采样长度</translation>
    </message>
    <message>
        <source>Tokens generated per completion: the KV cache and the decode time grow with it</source>
        <translation>每个回答生成的 token 数：KV 缓存和解码时间随之增长</translation>
    </message>
    <message>
        <source>Prompt length</source>
        <translation>提示长度</translation>
    </message>
    <message>
        <source>Prompt tokens per rollout; empty: sequence length − rollout length</source>
        <translation>每次采样的提示 token 数；留空：序列长度 − 采样长度</translation>
    </message>
    <message>
        <source>Generation engine</source>
        <translation>生成引擎</translation>
    </message>
    <message>
        <source>Who generates rollouts: the training model (HF generate, slow), vLLM on the same GPUs (it reserves a share of memory) or vLLM on its own share of the GPUs</source>
        <translation>由谁生成采样：训练模型本身（HF generate，较慢）、同一批 GPU 上的 vLLM（占用一部分显存），或在单独一部分 GPU 上运行的 vLLM</translation>
    </message>
    <message>
        <source>Generation share</source>
        <translation>生成占比</translation>
    </message>
    <message>
        <source>vLLM on the same GPUs: the share of each GPU&apos;s memory it reserves; on its own GPUs: the share of the GPUs that generate</source>
        <translation>vLLM 与训练共用 GPU 时：它在每张 GPU 上预留的显存比例；单独使用 GPU 时：负责生成的 GPU 所占比例</translation>
    </message>
    <message>
        <source>vLLM sleep mode</source>
        <translation>vLLM 休眠模式</translation>
    </message>
    <message>
        <source>vLLM frees its memory while the model trains (verl, TRL vllm_enable_sleep_mode)</source>
        <translation>模型训练时 vLLM 释放其显存（verl、TRL vllm_enable_sleep_mode）</translation>
    </message>
    <message>
        <source>Reward</source>
        <translation>奖励</translation>
    </message>
    <message>
        <source>A frozen reward model (the policy&apos;s architecture with a value head) or a reward function</source>
        <translation>冻结的奖励模型（策略模型架构加价值头）或奖励函数</translation>
    </message>
    <message>
        <source>On-policy (TRL, verl and OpenRLHF default): generate, then train on those rollouts. One step off-policy: vLLM on its own GPUs generates the next batch while this one trains (verl one_step_off_policy, OpenRLHF --async_train). Asynchronous: several batches in flight, the learners taking groups as they finish (open-instruct async_steps, NeMo RL async GRPO, verl fully async). Both need vLLM on separate GPUs</source>
        <translation>同策略（TRL、verl 和 OpenRLHF 的默认）：先生成，再用这些采样训练。提前一步：单独 GPU 上的 vLLM 在本批训练时生成下一批（verl one_step_off_policy、OpenRLHF --async_train）。异步：多个批次同时在途，训练端按组完成的先后取用（open-instruct async_steps、NeMo RL 异步 GRPO、verl fully_async_policy）。两者都需要 vLLM 在单独的 GPU 上</translation>
    </message>
    <message>
        <source>Batches in flight</source>
        <translation>在途批次数</translation>
    </message>
    <message>
        <source>Asynchronous schedule: generation batches in flight at once, i.e. how many steps old a rollout may be. The longest completion then holds the learners once per that many steps. Default 1. open-instruct async_steps defaults to 8, NeMo RL max_trajectory_age_steps to 1</source>
        <translation>异步调度：同时在途的生成批次数，即一条采样最多可落后多少步。最长的补全因此每隔这么多步才让训练端等待一次。默认 1。open-instruct 的 async_steps 默认 8，NeMo RL 的 max_trajectory_age_steps 默认 1</translation>
    </message>
    <message>
        <source>Regenerated share</source>
        <translation>重新生成的比例</translation>
    </message>
    <message>
        <source>Share of the generated groups thrown away and generated again because all their completions got the same reward (open-instruct active sampling, DAPO dynamic sampling). Generation takes 1 / (1 − share) as long. No tool publishes it; default 0: nothing regenerated</source>
        <translation>因组内所有补全奖励相同而被丢弃并重新生成的组所占比例（open-instruct 主动采样、DAPO 动态采样）。生成时间变为 1 / (1 − 比例) 倍。没有工具公布此值；默认 0：不重新生成</translation>
    </message>
    <message>
        <source>Model offload during rollouts</source>
        <translation>采样期间卸载训练模型</translation>
    </message>
    <message>
        <source>Megatron-SWIFT (--offload_model, --offload_optimizer; both off by default): the training model&apos;s weights, gradients and optimizer states leave the GPUs while vLLM generates and come back before training, so with vLLM asleep each phase has the card to itself; the copies over PCIe cost time every step</source>
        <translation>Megatron-SWIFT（--offload_model、--offload_optimizer；默认均关闭）：vLLM 生成时训练模型的权重、梯度和优化器状态离开 GPU，训练前再移回；配合 vLLM 休眠，每个阶段独占整张卡；经 PCIe 的拷贝每步都要花时间</translation>
    </message>
    <message>
        <source>DeepSpeed Hybrid Engine</source>
        <translation>DeepSpeed 混合引擎</translation>
    </message>
    <message>
        <source>DeepSpeed-Chat (--enable_hybrid_engine; off by default): the training model generates through DeepSpeed-Inference&apos;s fused kernels, about 14 kernel launches a layer and token instead of the model&apos;s own forward&apos;s 43, so eager generation waits less on Python. DeepSpeed with generation by the training model only</source>
        <translation>DeepSpeed 对话训练示例（--enable_hybrid_engine；默认关闭）：训练模型通过 DeepSpeed 推理库的融合内核生成，每层每个词元约 14 次内核启动，而模型自身的前向需要 43 次，因此即时模式下生成等待 Python 的时间更少。仅适用于 DeepSpeed 且由训练模型生成的情形</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>Automatic: the plan search picks GPU count, TP/PP/ZeRO and recompute; manual: you set them</source>
        <translation>自动：由方案搜索选择 GPU 数、TP/PP/ZeRO 和重计算；手动：由你设定</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Total GPUs for this layout (whole nodes when more than one node)</source>
        <translation>该布局的 GPU 总数（超过一个节点时按整节点计）</translation>
    </message>
    <message>
        <source>Tensor parallel (TP)</source>
        <translation>张量并行（TP）</translation>
    </message>
    <message>
        <source>Splits every layer&apos;s matrices over TP GPUs: divides weights and activations, needs fast links (keep it inside an NVLink node)</source>
        <translation>把每层的矩阵切分到 TP 张 GPU 上：分摊权重和激活值，需要高速互联（应限制在一个 NVLink 节点内）</translation>
    </message>
    <message>
        <source>Pipeline parallel (PP)</source>
        <translation>流水线并行（PP）</translation>
    </message>
    <message>
        <source>Splits the layers into PP stages: divides weights; adds a pipeline bubble</source>
        <translation>把各层分成 PP 个阶段：分摊权重；会带来流水线气泡</translation>
    </message>
    <message>
        <source>Context parallel (CP)</source>
        <translation>上下文并行（CP）</translation>
    </message>
    <message>
        <source>Splits each sequence over CP GPUs: divides activations at long context</source>
        <translation>把每条序列切分到 CP 张 GPU 上：长上下文时分摊激活值</translation>
    </message>
    <message>
        <source>Expert parallel (EP)</source>
        <translation>专家并行（EP）</translation>
    </message>
    <message>
        <source>Spreads MoE experts over EP GPUs: divides expert weights</source>
        <translation>把 MoE 专家分布到 EP 张 GPU 上：分摊专家权重</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>Shards over data-parallel GPUs: 1 the optimizer states, 2 also gradients, 3 also weights (FSDP full shard); more sharding, more communication</source>
        <translation>在数据并行的 GPU 间切分：1 切分优化器状态，2 再加梯度，3 再加权重（FSDP 完全切分）；切分越多，通信越多</translation>
    </message>
    <message>
        <source>Sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>With TP: also split the layer-norm/dropout activations</source>
        <translation>配合 TP：同时切分 layer-norm/dropout 的激活值</translation>
    </message>
    <message>
        <source>Offload optimizer</source>
        <translation>卸载优化器</translation>
    </message>
    <message>
        <source>Pretraining</source>
        <translation>预训练</translation>
    </message>
    <message>
        <source>Full fine-tune</source>
        <translation>全参微调</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>QLoRA (4-bit base)</source>
        <translation>QLoRA（4 bit 基座）</translation>
    </message>
    <message>
        <source>framework default</source>
        <translation>按框架默认</translation>
    </message>
    <message>
        <source>Transformer Engine, delayed scaling</source>
        <translation>Transformer Engine，延迟缩放</translation>
    </message>
    <message>
        <source>Transformer Engine, current scaling</source>
        <translation>Transformer Engine，即时缩放</translation>
    </message>
    <message>
        <source>torchao, tensorwise</source>
        <translation>torchao，按张量缩放</translation>
    </message>
    <message>
        <source>torchao, rowwise</source>
        <translation>torchao，按行缩放</translation>
    </message>
    <message>
        <source>all-gather weights in FP8</source>
        <translation>以 FP8 全收集权重</translation>
    </message>
    <message>
        <source>all-gather weights in 16 bits</source>
        <translation>以 16 位全收集权重</translation>
    </message>
    <message>
        <source>uniform (groups of layers)</source>
        <translation>均匀（按层分组）</translation>
    </message>
    <message>
        <source>block (first layers of each stage)</source>
        <translation>分块（每个阶段的前几层）</translation>
    </message>
    <message>
        <source>AdamW 8-bit</source>
        <translation>AdamW 8-bit</translation>
    </message>
    <message>
        <source>SGD (momentum)</source>
        <translation>SGD（动量）</translation>
    </message>
    <message>
        <source>HF Trainer / PyTorch</source>
        <translation>HF Trainer / PyTorch</translation>
    </message>
    <message>
        <source>next-token loss (pretraining / SFT)</source>
        <translation>下一个 token 预测损失（预训练 / SFT）</translation>
    </message>
    <message>
        <source>ORPO (no reference)</source>
        <translation>ORPO（无需参考模型）</translation>
    </message>
    <message>
        <source>SimPO (no reference)</source>
        <translation>SimPO（无需参考模型）</translation>
    </message>
    <message>
        <source>CPO (no reference)</source>
        <translation>CPO（无需参考模型）</translation>
    </message>
    <message>
        <source>reward model</source>
        <translation>奖励模型</translation>
    </message>
    <message>
        <source>PPO (RLHF)</source>
        <translation>PPO（RLHF）</translation>
    </message>
    <message>
        <source>method default</source>
        <translation>按方法默认</translation>
    </message>
    <message>
        <source>separate frozen copy</source>
        <translation>单独的冻结副本</translation>
    </message>
    <message>
        <source>LoRA base (adapters off)</source>
        <translation>LoRA 基座（关闭适配器）</translation>
    </message>
    <message>
        <source>precomputed log-probs</source>
        <translation>预先计算的对数概率</translation>
    </message>
    <message>
        <source>training model (HF generate)</source>
        <translation>训练模型（HF generate）</translation>
    </message>
    <message>
        <source>vLLM on the same GPUs</source>
        <translation>同一批 GPU 上的 vLLM</translation>
    </message>
    <message>
        <source>vLLM on separate GPUs</source>
        <translation>单独 GPU 上的 vLLM</translation>
    </message>
    <message>
        <source>reward function</source>
        <translation>奖励函数</translation>
    </message>
    <message>
        <source>frozen models in CPU memory</source>
        <translation>冻结模型放在 CPU 内存</translation>
    </message>
    <message>
        <source>free vLLM memory while training</source>
        <translation>训练时释放 vLLM 显存</translation>
    </message>
    <message>
        <source>training model in CPU memory while vLLM generates</source>
        <translation>vLLM 生成时训练模型放在 CPU 内存中</translation>
    </message>
    <message>
        <source>weight-decomposed LoRA (PEFT use_dora)</source>
        <translation>权重分解的 LoRA（PEFT use_dora）</translation>
    </message>
    <message>
        <source>every sample padded to the sequence length</source>
        <translation>每个样本都填充到序列长度</translation>
    </message>
    <message>
        <source>asynchronous (batches in flight)</source>
        <translation>异步（多批在途）</translation>
    </message>
    <message>
        <source>batches</source>
        <translation>批</translation>
    </message>
    <message>
        <source>of the groups</source>
        <translation>的组</translation>
    </message>
    <message>
        <source>fused inference kernels (--enable_hybrid_engine)</source>
        <translation>融合推理内核（--enable_hybrid_engine）</translation>
    </message>
    <message>
        <source>completions</source>
        <translation>个回答</translation>
    </message>
    <message>
        <source>global batch</source>
        <translation>全局批次</translation>
    </message>
    <message>
        <source>gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>q/k/v and MLP, not o_proj (fsdp_qlora &quot;all&quot;)</source>
        <translation>q/k/v 与 MLP，不含 o_proj（fsdp_qlora 的 “all”）</translation>
    </message>
    <message>
        <source>selective: {0} (Megatron)</source>
        <translation>选择性：{0}（Megatron）</translation>
    </message>
    <message>
        <source>every N-th layer (torchtitan before 2026-03)</source>
        <translation>每隔 N 层（2026 年 3 月之前的 torchtitan）</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO (default)</source>
        <translation>DeepSpeed ZeRO（默认）</translation>
    </message>
    <message>
        <source>FSDP1 through Accelerate</source>
        <translation>通过 Accelerate 的 FSDP1</translation>
    </message>
    <message>
        <source>Per optimizer step: {0} sequences (micro-batch {1} × data-parallel {2} × accumulation {3}).</source>
        <translation>每个优化器步骤：{0} 条序列（微批次 {1} × 数据并行 {2} × 累积 {3}）。</translation>
    </message>
    <message>
        <source>While each step trains, the next step&apos;s rollouts ({0} prompt + {1} completion tokens each) are generated; only generation that outlasts the training, and loading the new weights, add to the step.</source>
        <translation>每步训练的同时生成下一步的采样（每次 {0} 个提示 token + {1} 个回答 token）；只有比训练更久的生成部分以及加载新权重会计入步时。</translation>
    </message>
    <message>
        <source>Rollouts ({0} prompt + {1} completion tokens each) are generated up to {2} step(s) ahead while the training runs; only generation that outlasts the training, and loading the new weights, add to the step.</source>
        <translation>训练进行的同时，最多提前 {2} 步生成采样（每次 {0} 个提示 token + {1} 个回答 token）；只有比训练更久的生成部分以及加载新权重会计入步时。</translation>
    </message>
    <message>
        <source>Automatic layout: the selected plan (#{0}) uses {1} × {2} · TP {3} · PP {4} · CP {5} · EP {6} · DP {7} · ZeRO-{8} · {9} · micro-batch {10} × accumulation {11}. The fields keep your own choices; the live charts show this plan.</source>
        <translation>自动布局：选中的方案（#{0}）使用 {1} × {2} · TP {3} · PP {4} · CP {5} · EP {6} · DP {7} · ZeRO-{8} · {9} · 微批次 {10} × 累积 {11}。上面的字段保留你自己的选择；实时图表显示此方案。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>full (every layer)</source>
        <translation>完全（每一层）</translation>
    </message>
    <message>
        <source>attention projections</source>
        <translation>注意力投影层</translation>
    </message>
    <message>
        <source>all linear layers</source>
        <translation>所有线性层</translation>
    </message>
    <message>
        <source>automatic (best found)</source>
        <translation>自动（取最优）</translation>
    </message>
    <message>
        <source>manual</source>
        <translation>手动</translation>
    </message>
    <message>
        <source>0 (none)</source>
        <translation>0（无）</translation>
    </message>
    <message>
        <source>1 (optimizer)</source>
        <translation>1（优化器）</translation>
    </message>
    <message>
        <source>2 (+ gradients)</source>
        <translation>2（+ 梯度）</translation>
    </message>
    <message>
        <source>3 (+ weights)</source>
        <translation>3（+ 权重）</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>token</translation>
    </message>
    <message>
        <source>Recompute activations in the backward pass instead of storing them: saves memory, costs compute. Selective (Megatron): the attention core only; per-op (torchtitan): keeps every other matmul output and the attention output; every N-th layer (torchtitan): whole layers, one in N; full: every layer, about a third more compute</source>
        <translation>在反向传播中重新计算激活值而不保存：省显存、多花算力。选择性（Megatron）：只重计算注意力核心；逐算子（torchtitan）：隔一个保存矩阵乘输出，并保存注意力输出；每隔 N 层（torchtitan）：每 N 层重计算一整层；完全：每一层都重计算，算力约多三分之一</translation>
    </message>
    <message>
        <source>Layers recomputed per stage</source>
        <translation>每阶段重计算层数</translation>
    </message>
    <message>
        <source>Megatron --recompute-num-layers: how many layers of each pipeline stage are recomputed; empty: all of them</source>
        <translation>Megatron --recompute-num-layers：每个流水线阶段重计算多少层；留空：全部</translation>
    </message>
    <message>
        <source>Recompute method</source>
        <translation>重计算方式</translation>
    </message>
    <message>
        <source>Megatron --recompute-method: uniform checkpoints groups of that many layers; block recomputes the first layers of each stage and keeps the rest</source>
        <translation>Megatron --recompute-method：均匀方式按该层数分组设检查点；分块方式重计算每个阶段的前几层，其余保存</translation>
    </message>
    <message>
        <source>FP8 recipe</source>
        <translation>FP8 方案</translation>
    </message>
    <message>
        <source>FP8 weight all-gather</source>
        <translation>FP8 权重全收集</translation>
    </message>
    <message>
        <source>Recompute every N-th layer</source>
        <translation>每隔 N 层重计算</translation>
    </message>
    <message>
        <source>Every N-th layer: checkpoint the layers whose number is a multiple of N (torchtitan selective_ac_option)</source>
        <translation>每隔 N 层：对层号为 N 的倍数的层设检查点（torchtitan selective_ac_option）</translation>
    </message>
    <message>
        <source>PyTorch allocator setting expandable_segments (in PYTORCH_CUDA_ALLOC_CONF): almost no fragmentation, so reserved memory is close to allocated; default: on for FSDP2 (torchtitan), off elsewhere</source>
        <translation>PyTorch 分配器设置 expandable_segments（在 PYTORCH_CUDA_ALLOC_CONF 中）：几乎没有碎片，保留显存接近已分配显存；默认：FSDP2（torchtitan）开启，其他框架关闭</translation>
    </message>
    <message>
        <source>sequences</source>
        <translation>条序列</translation>
    </message>
    <message>
        <source>torchtitan default: 1</source>
        <translation>torchtitan 默认：1</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步</translation>
    </message>
    <message>
        <source>cuDNN / FlashAttention-3</source>
        <translation>cuDNN / FlashAttention-3</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开启</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>q_proj and v_proj (PEFT&apos;s Llama default)</source>
        <translation>q_proj 和 v_proj（PEFT 对 Llama 的默认）</translation>
    </message>
    <message>
        <source>MLP only (gate, up, down)</source>
        <translation>仅 MLP（gate、up、down）</translation>
    </message>
    <message>
        <source>split norm/dropout activations over TP</source>
        <translation>按 TP 切分 norm/dropout 的激活值</translation>
    </message>
    <message>
        <source>optimizer states in CPU memory</source>
        <translation>优化器状态放在 CPU 内存</translation>
    </message>
    <message>
        <source>selective: attention core (Megatron)</source>
        <translation>选择性：注意力核心（Megatron）</translation>
    </message>
    <message>
        <source>per-op selective (torchtitan)</source>
        <translation>逐算子选择性（torchtitan）</translation>
    </message>
    <message>
        <source>Per optimizer step: {0} sequences = {1} tokens (micro-batch {2} × data-parallel {3} × accumulation {4}).</source>
        <translation>每个优化器步骤：{0} 条序列 = {1} token（微批次 {2} × 数据并行 {3} × 累积 {4}）。</translation>
    </message>
    <message>
        <source>frozen reference</source>
        <translation>冻结的参考模型</translation>
    </message>
    <message>
        <source>frozen reward model</source>
        <translation>冻结的奖励模型</translation>
    </message>
    <message>
        <source>trained critic</source>
        <translation>训练中的评论家模型</translation>
    </message>
    <message>
        <source>vLLM weights</source>
        <translation>vLLM 权重</translation>
    </message>
    <message>
        <source>rollout KV cache</source>
        <translation>采样 KV 缓存</translation>
    </message>
    <message>
        <source>One model, trained on the next-token loss.</source>
        <translation>只有一个模型，按下一个 token 预测损失训练。</translation>
    </message>
    <message>
        <source>Held besides the trained model: {0}.</source>
        <translation>除训练中的模型外，显存中还有：{0}。</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Each example is a chosen and a rejected sequence run together: the micro-batch holds twice the sequences.</source>
        <translation>每个样本是一条被选序列和一条被拒序列一起运行：微批次中的序列数翻倍。</translation>
    </message>
    <message>
        <source>Each step first generates {0} prompt + {1} completion tokens per rollout.</source>
        <translation>每步先为每次采样生成 {0} 个提示 token + {1} 个回答 token。</translation>
    </message>
    <message>
        <source>Automatic layout: searching for the best plan…</source>
        <translation>自动布局：正在搜索最优方案…</translation>
    </message>
    <message>
        <source>Automatic layout: no plan yet; the live charts use the values above.</source>
        <translation>自动布局：尚无方案；实时图表使用上面的值。</translation>
    </message>
    <message>
        <source>Data-parallel degree = GPUs ÷ (TP × PP × CP) = {0}.</source>
        <translation>数据并行度 = GPU 数 ÷ (TP × PP × CP) = {0}。</translation>
    </message>
    <message>
        <source>Paged optimizer</source>
        <translation>分页优化器</translation>
    </message>
    <message>
        <source>bitsandbytes paged optimizers (PagedAdamW, PagedAdamW8bit) keep their states in CUDA unified memory, outside PyTorch&apos;s allocator: the device holds them, PyTorch&apos;s memory_allocated and memory_reserved do not count them. Default: off</source>
        <translation>bitsandbytes 分页优化器（PagedAdamW、PagedAdamW8bit）把状态放在 CUDA 统一内存中，不经 PyTorch 的分配器：设备上占用它们，PyTorch 的 memory_allocated 和 memory_reserved 不计入。默认：关闭</translation>
    </message>
    <message>
        <source>Mean sample length</source>
        <translation>平均样本长度</translation>
    </message>
    <message>
        <source>Packing</source>
        <translation>打包</translation>
    </message>
    <message>
        <source>Padding-free</source>
        <translation>无填充</translation>
    </message>
    <message>
        <source>FSDP2 (torchtitan, fully_shard) copies weights in and out around each all-gather; FSDP1 (Accelerate, Composer) shards flat parameters. On the Hugging Face Trainer and the tools on it at ZeRO 2/3: DeepSpeed ZeRO (default) or FSDP1 through Accelerate, for memory and time alike</source>
        <translation>FSDP2（torchtitan，fully_shard）在每次 all-gather 前后把权重拷入拷出；FSDP1（Accelerate、Composer）对扁平化参数分片。在 Hugging Face Trainer 及基于它的工具上、ZeRO 2/3 时：DeepSpeed ZeRO（默认）或通过 Accelerate 的 FSDP1，显存和时间都按它计算</translation>
    </message>
    <message>
        <source>Which linear layers get adapters. Defaults: LLaMA-Factory lora_target all, ms-swift target_modules all-linear (all linear layers); PEFT with no target_modules: q_proj and v_proj for Llama-family models</source>
        <translation>哪些线性层加适配器。默认：LLaMA-Factory 的 lora_target 为 all，ms-swift 的 target_modules 为 all-linear（全部线性层）；PEFT 不设 target_modules 时，Llama 系模型为 q_proj 和 v_proj</translation>
    </message>
    <message>
        <source>DoRA</source>
        <translation>DoRA</translation>
    </message>
    <message>
        <source>Weight-decomposed LoRA (PEFT use_dora, LLaMA-Factory use_dora, ms-swift --use_dora; default off). PEFT recomputes the norm of every adapted weight in each forward: slower steps, most with all linear layers as targets, and a little more memory</source>
        <translation>权重分解的 LoRA（PEFT use_dora、LLaMA-Factory use_dora、ms-swift --use_dora；默认关闭）。PEFT 每次前向都重算每个被适配权重的范数：单步更慢（目标为全部线性层时最明显），显存也略多</translation>
    </message>
    <message>
        <source>vLLM concurrent sequences</source>
        <translation>vLLM 并发序列数</translation>
    </message>
    <message>
        <source>vLLM max_num_seqs: the most sequences one engine decodes at once, the rest queue. Empty: vLLM&apos;s default, 1024 on GPUs of 70 GiB or more (not A100), else 256; verl sets 256; TRL sends every rollout of the batch</source>
        <translation>vLLM max_num_seqs：一个引擎同时解码的最多序列数，其余排队。留空：vLLM 默认值，70 GiB 及以上的 GPU（A100 除外）为 1024，否则为 256；verl 设为 256；TRL 一次送入整批采样</translation>
    </message>
    <message>
        <source>vLLM tensor parallel</source>
        <translation>vLLM 张量并行</translation>
    </message>
    <message>
        <source>GPUs per vLLM engine for the rollouts: each holds 1/TP of the weights. Empty: the training layout&apos;s TP. verl rollout tensor_model_parallel_size defaults to 2, TRL vllm_tensor_parallel_size to 1</source>
        <translation>采样时每个 vLLM 引擎使用的 GPU 数：每张卡持有 1/TP 的权重。留空：训练布局的 TP。verl 采样配置 tensor_model_parallel_size 默认 2，TRL vllm_tensor_parallel_size 默认 1</translation>
    </message>
    <message>
        <source>Optimizer steps per generation</source>
        <translation>每次生成的优化步数</translation>
    </message>
    <message>
        <source>Optimizer steps trained on one batch of rollouts, each on the global batch (default 1). TRL: steps_per_generation ÷ accumulation × num_iterations; verl: train_batch_size ÷ ppo_mini_batch_size × ppo_epochs; OpenRLHF: rollout_batch_size × n_samples_per_prompt ÷ train_batch_size × max_epochs</source>
        <translation>用同一批采样训练的优化步数，每步一个全局批次（默认 1）。TRL：steps_per_generation ÷ 累积步数 × num_iterations；verl：train_batch_size ÷ ppo_mini_batch_size × ppo_epochs；OpenRLHF：rollout_batch_size × n_samples_per_prompt ÷ train_batch_size × max_epochs</translation>
    </message>
    <message>
        <source>Mean completion share</source>
        <translation>平均回答占比</translation>
    </message>
    <message>
        <source>Mean completion length as a share of the rollout length (the maximum): the longest completion still sets the generation time, shorter ones leave the batch early. Default 1: every completion reaches the maximum</source>
        <translation>平均回答长度占采样长度（上限）的比例：生成时间仍由最长的回答决定，较短的回答提前离开批次。默认 1：每个回答都达到上限</translation>
    </message>
    <message>
        <source>RL schedule</source>
        <translation>强化学习调度</translation>
    </message>
    <message>
        <source>Critic without padding</source>
        <translation>评论家模型无填充</translation>
    </message>
    <message>
        <source>PPO: the critic&apos;s passes without padding (verl critic.model.use_remove_padding, default off: prompt + rollout length per sequence). Default here: as the policy (packing / padding-free)</source>
        <translation>PPO：评论家模型的前向和训练不做填充（verl 评论家配置 use_remove_padding，默认关闭：每条序列按提示 + 采样长度计）。此处默认：与策略模型相同（打包 / 无填充）</translation>
    </message>
    <message>
        <source>Expert tensor parallel</source>
        <translation>专家张量并行</translation>
    </message>
    <message>
        <source>MoE: tensor parallelism inside each routed expert (Megatron-Core --expert-tensor-parallel-size). Empty: the framework&apos;s default, Megatron the TP degree, others 1 (each GPU holds whole experts). The automatic layout keeps this value</source>
        <translation>MoE：每个路由专家内部的张量并行（Megatron-Core --expert-tensor-parallel-size）。留空：按框架默认，Megatron 为 TP 度，其他框架为 1（每张 GPU 持有完整专家）。自动布局保留此值</translation>
    </message>
    <message>
        <source>Keep optimizer states in CPU memory (slower steps). RL on FSDP (verl optimizer_offload, EasyR1 offload_optimizer; default off): on the GPUs while the actor trains, in CPU memory while vLLM generates, copied over PCIe every step</source>
        <translation>把优化器状态放在 CPU 内存中（单步更慢）。FSDP 上的强化学习（verl 的 optimizer_offload、EasyR1 的 offload_optimizer；默认关闭）：策略模型训练时在 GPU 上，vLLM 生成时放在 CPU 内存中，每步都经 PCIe 拷贝</translation>
    </message>
    <message>
        <source>optimizer states in unified memory (bitsandbytes)</source>
        <translation>优化器状态放在统一内存（bitsandbytes）</translation>
    </message>
    <message>
        <source>pack samples into rows</source>
        <translation>把样本打包成行</translation>
    </message>
    <message>
        <source>flatten micro-batches, no padding</source>
        <translation>展平微批次，不做填充</translation>
    </message>
    <message>
        <source>fills the sequence length</source>
        <translation>占满序列长度</translation>
    </message>
    <message>
        <source>vLLM default</source>
        <translation>vLLM 默认</translation>
    </message>
    <message>
        <source>training TP</source>
        <translation>训练 TP</translation>
    </message>
    <message>
        <source>of the maximum</source>
        <translation>× 上限</translation>
    </message>
    <message>
        <source>on-policy (generate, then train)</source>
        <translation>同策略（先生成，再训练）</translation>
    </message>
    <message>
        <source>one step off-policy (overlapped)</source>
        <translation>提前一步生成（与训练重叠）</translation>
    </message>
    <message>
        <source>as the policy</source>
        <translation>与策略模型相同</translation>
    </message>
    <message>
        <source>Pack several samples into each sequence-length row (TRL --packing, default off); with flash attention each sample attends only to itself</source>
        <translation>把多个样本打包进每一行序列长度（TRL --packing，默认关闭）；使用 flash attention 时每个样本只关注自身</translation>
    </message>
    <message>
        <source>Flatten each micro-batch&apos;s samples into one row without padding (TRL --padding_free, default off): memory and time follow the real tokens; a run&apos;s longest batch needs more</source>
        <translation>把每个微批次的样本展平成一行、不做填充（TRL --padding_free，默认关闭）：显存和时间按真实 token 计；训练中最长的批次需要更多</translation>
    </message>
    <message>
        <source>Transformer Engine, MXFP8 (Blackwell)</source>
        <translation>Transformer Engine，MXFP8（Blackwell）</translation>
    </message>
    <message>
        <source>How FP8 scales are computed: Transformer Engine delayed (amax history) or current scaling (Megatron, DeepSpeed) or MXFP8 blocks of 32 (Megatron, Blackwell only), torchao tensorwise or rowwise (torchtitan). The linear layers run in FP8; attention and the output layer stay in BF16</source>
        <translation>FP8 缩放因子的计算方式：Transformer Engine 延迟缩放（amax 历史）或即时缩放（Megatron、DeepSpeed），或每 32 个元素一块的 MXFP8（Megatron，仅 Blackwell），torchao 按张量或按行缩放（torchtitan）。线性层以 FP8 运行；注意力和输出层保持 BF16</translation>
    </message>
    <message>
        <source>Gather the sharded weights in FP8 (half the bytes and buffer): FSDP2 with torchao tensorwise, or Megatron with a Transformer Engine recipe (--fp8-param-gather, set by Megatron-Bridge&apos;s FP8 presets)</source>
        <translation>以 FP8 收集切分的权重（字节数和缓冲区减半）：FSDP2 配合 torchao 按张量缩放，或 Megatron 配合 Transformer Engine 方案（--fp8-param-gather，Megatron-Bridge 的 FP8 预设会开启）</translation>
    </message>
    <message>
        <source>vLLM eager mode</source>
        <translation>vLLM 即时执行模式</translation>
    </message>
    <message>
        <source>vLLM without CUDA graphs (enforce_eager): every decode step waits for Python to launch its kernels, which slows small models. vLLM and TRL default off; verl set it on until August 2025</source>
        <translation>vLLM 不使用 CUDA graph（enforce_eager）：每个解码步都要等待 Python 逐个启动内核，小模型会明显变慢。vLLM 和 TRL 默认关闭；verl 在 2025 年 8 月之前默认开启</translation>
    </message>
    <message>
        <source>vLLM sleep level</source>
        <translation>vLLM 休眠级别</translation>
    </message>
    <message>
        <source>With sleep mode: level 1 copies vLLM&apos;s weights to CPU memory and back every generation (verl with vLLM before 0.8.5); level 2 drops them and the weight update rewrites them (TRL; verl with vLLM 0.8.5 or later)</source>
        <translation>开启休眠模式时：级别 1 在每次生成时把 vLLM 的权重复制到 CPU 内存再复制回来（verl 搭配 vLLM 0.8.5 之前的版本）；级别 2 直接丢弃权重，由权重更新重新写入（TRL；verl 搭配 vLLM 0.8.5 及之后的版本）</translation>
    </message>
    <message>
        <source>Padded prompt length</source>
        <translation>填充后的提示长度</translation>
    </message>
    <message>
        <source>Without padding-free batches (and for verl&apos;s padded critic) every prompt is padded to this length: verl pads to data.max_prompt_length. Empty: the prompt length (TRL pads to the batch&apos;s longest prompt)</source>
        <translation>未使用无填充批次时（以及 verl 带填充的评论家模型），每个提示都会被填充到此长度：verl 填充到 data.max_prompt_length。留空：提示长度（TRL 填充到批次内最长的提示）</translation>
    </message>
    <message>
        <source>no CUDA graphs (enforce_eager)</source>
        <translation>不使用 CUDA graph（enforce_eager）</translation>
    </message>
    <message>
        <source>1: weights to CPU memory and back</source>
        <translation>1：权重移到 CPU 内存再移回</translation>
    </message>
    <message>
        <source>2: weights dropped</source>
        <translation>2：丢弃权重</translation>
    </message>
    <message>
        <source>prompt length</source>
        <translation>提示长度</translation>
    </message>
    <message>
        <source>fused q/k/v projection (Megatron linear_qkv)</source>
        <translation>融合的 q/k/v 投影层（Megatron linear_qkv）</translation>
    </message>
    <message>
        <source>Liger kernels</source>
        <translation>Liger Kernel 融合内核</translation>
    </message>
    <message>
        <source>Liger Kernel&apos;s Triton kernels on Hugging Face models (use_liger_kernel in the HF Trainer and TRL, enable_liger_kernel in LLaMA-Factory): the loss is computed chunk by chunk without a logits tensor, and RMSNorm, RoPE and SwiGLU are fused. Not for Megatron or Unsloth. Default: off</source>
        <translation>在 Hugging Face 模型上使用 Liger Kernel 的融合内核（HF Trainer 与 TRL 中为 use_liger_kernel，LLaMA-Factory 中为 enable_liger_kernel）：损失按块计算，不生成 logits 张量；RMSNorm、RoPE 和 SwiGLU 均为融合内核。不适用于 Megatron 或 Unsloth。默认：关闭</translation>
    </message>
    <message>
        <source>fused loss and layer kernels (Hugging Face models)</source>
        <translation>融合的损失与层内核（Hugging Face 模型）</translation>
    </message>
    <message>
        <source>Cut cross-entropy (Unsloth)</source>
        <translation>切分交叉熵（Unsloth）</translation>
    </message>
    <message>
        <source>Unsloth computes the loss with Cut Cross-Entropy since November 2024: no logits tensor. Clear it for an older Unsloth, whose cross-entropy kernel keeps the 16-bit logits, beside the HF Trainer&apos;s fp32 copy of them. Unsloth only. Default: on</source>
        <translation>自 2024 年 11 月起，Unsloth 用切分交叉熵计算损失，不生成 logits 张量。使用更早版本的 Unsloth 时请取消勾选：其交叉熵内核会保留 16 位 logits，另有 HF Trainer 生成的 fp32 副本。仅适用于 Unsloth。默认：开启</translation>
    </message>
    <message>
        <source>no logits tensor (Unsloth since November 2024)</source>
        <translation>不生成 logits 张量（2024 年 11 月起的 Unsloth）</translation>
    </message>
    <message>
        <source>all layers</source>
        <translation>全部层</translation>
    </message>
    <message>
        <source>Attention implementation</source>
        <translation>注意力实现</translation>
    </message>
    <message>
        <source>SDPA (Transformers&apos; default)</source>
        <translation>SDPA（Transformers 默认）</translation>
    </message>
    <message>
        <source>What the step optimises. DPO/IPO/KTO keep a frozen reference model; ORPO/SimPO/CPO need none; paired methods run chosen and rejected sequences together (twice the activations); PPO holds reference, reward and critic models; PPO/GRPO generate rollouts before each step</source>
        <translation>每步优化的目标。DPO/IPO/KTO 需要一个冻结的参考模型；ORPO/SimPO/CPO 不需要；成对方法同时运行被选和被拒的序列（激活值翻倍）；PPO 需要参考、奖励和评论家模型；PPO/GRPO 在每步之前先生成采样</translation>
    </message>
    <message>
        <source>Transformers&apos; attn_implementation. SDPA (the default since Transformers 4.36) uses the flash kernel only when no token is padded: a padded batch passes a mask, and PyTorch then runs its memory-efficient kernel over the whole sequence × sequence square, which is slower. FlashAttention-2 (the flash-attn package; LLaMA-Factory flash_attn: fa2, ms-swift and Axolotl flash_attention) skips the padding and runs its own kernel. Eager computes the seq×seq scores with plain matrix products: more memory and time</source>
        <translation>Transformers 的 attn_implementation。SDPA（Transformers 4.36 起的默认值）只在没有填充 token 时使用 flash 内核：带填充的批次会传入掩码，PyTorch 随即改用其节省显存的内核，在整个“序列 × 序列”方阵上计算，速度更慢。FlashAttention-2（flash-attn 包；LLaMA-Factory 的 flash_attn: fa2，ms-swift 和 Axolotl 的 flash_attention）会跳过填充部分，并运行自己的内核。Eager 用普通矩阵乘法计算 seq×seq 的注意力分数：显存和时间都更多</translation>
    </message>
    <message>
        <source>FlashAttention-2 (flash-attn package)</source>
        <translation>FlashAttention-2（flash-attn 包）</translation>
    </message>
    <message>
        <source>eager (no fused kernel)</source>
        <translation>eager（无融合内核）</translation>
    </message>
    <message>
        <source>Attention implementation is Transformers&apos; setting: {0} runs its own attention, so FlashAttention-2 here changes nothing</source>
        <translation>“注意力实现”是 Transformers 的设置：{0} 运行自己的注意力代码，因此这里选 FlashAttention-2 不起作用</translation>
    </message>
    <message>
        <source>FlashAttention-2 runs the flash-attn kernel, not cuDNN: the estimate prices the cuDNN kernel until the attention kernel is set to framework default</source>
        <translation>FlashAttention-2 运行的是 flash-attn 内核，而不是 cuDNN：在把“注意力内核”设为框架默认之前，估算按 cuDNN 内核计价</translation>
    </message>
    <message>
        <source>Sample length spread</source>
        <translation>样本长度离散度</translation>
    </message>
    <message>
        <source>Standard deviation of tokens per sample (ms-swift&apos;s dataset list gives mean±std). A padded micro-batch of several samples runs at its longest sample; the spread sets how long that is. Empty (default): 0.46 × the mean sample length, the median spread of ms-swift&apos;s published datasets. Needs a mean sample length; not used with packing or padding-free</source>
        <translation>每个样本 token 数的标准差（ms-swift 的数据集列表给出“均值±标准差”）。含多个样本的填充微批次按其中最长的样本运行；离散度决定这个最长样本有多长。留空（默认）：平均样本长度的 0.46 倍，即 ms-swift 已公布数据集离散度的中位数。需要先填写平均样本长度；打包或无填充时不使用</translation>
    </message>
    <message>
        <source>0.46 × mean</source>
        <translation>0.46 × 均值</translation>
    </message>
    <message>
        <source>Pad to sequence length</source>
        <translation>填充到序列长度</translation>
    </message>
    <message>
        <source>Mean tokens per training sample (prompt + answer). Unless packing or padding-free is on, shorter samples are padded to the longest sample of their micro-batch (peak memory: to the sequence length); empty (default): every sample fills the sequence length, as in pretraining. The same value as the Data page&apos;s Average length: when the data is given as samples × length, the data volume follows it</source>
        <translation>每个训练样本的平均 token 数（提示 + 回答）。除非开启打包或无填充，较短的样本会被填充到所在微批次中最长的样本（峰值显存：填充到序列长度）；留空（默认）：每个样本都占满序列长度，与预训练相同。与“数据量”页的“平均长度”是同一个值：数据按“样本数 × 长度”给出时，数据量随之变化</translation>
    </message>
    <message>
        <source>Fused cross-entropy (Megatron)</source>
        <translation>融合交叉熵（Megatron）</translation>
    </message>
    <message>
        <source>Megatron-Core&apos;s fused loss kernels (--cross-entropy-loss-fusion). Off, the loss makes an fp32 copy of the logits and runs about six passes over it: a few percent of the step where the vocabulary is large and tensor parallelism small. Default: off in Megatron-LM, on in NeMo / Megatron-Bridge and Megatron-SWIFT</source>
        <translation>Megatron-Core 的融合损失内核（--cross-entropy-loss-fusion）。关闭时，损失会把 logits 复制成 fp32 并在其上做约六遍读写：词表大、张量并行度小时占一步的百分之几。默认：Megatron-LM 关闭，NeMo / Megatron-Bridge 与 Megatron-SWIFT 开启</translation>
    </message>
    <message>
        <source>Pad every sample to the sequence length instead of the longest sample of its micro-batch (Axolotl pad_to_sequence_len: true; transformers padding=&quot;max_length&quot;). Default off: the tools&apos; collators pad to the batch&apos;s longest. Needs a mean sample length: without one every sample already fills the sequence length</source>
        <translation>把每个样本都填充到序列长度，而不是填充到所在微批次中最长的样本（Axolotl pad_to_sequence_len: true；transformers 的 max_length 填充方式）。默认关闭：各工具的数据整理器填充到批次中最长的样本。需要先填写平均样本长度：不填时每个样本本来就占满序列长度</translation>
    </message>
    <message>
        <source>Completion length spread</source>
        <translation>回答长度离散度</translation>
    </message>
    <message>
        <source>Standard deviation of the completions&apos; lengths in tokens (verl logs response_length/mean, /max and /min each step). With the mean it sets how long the longest completion runs, which ends the generation. Empty (default): 0.39 × the mean completion, the median of verl&apos;s published logs</source>
        <translation>回答长度的标准差，单位为 token（verl 每步记录 response_length/mean、/max 和 /min）。它与均值一起决定最长的回答有多长，而生成在最长的回答结束时才结束。留空（默认）：平均回答长度的 0.39 倍，即 verl 已公布日志的中位数</translation>
    </message>
    <message>
        <source>0.39 × mean</source>
        <translation>0.39 × 均值</translation>
    </message>
    <message>
        <source>fused kernel (FlashAttention / cuDNN)</source>
        <translation>融合内核（FlashAttention / cuDNN）</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <source>expected a number such as 300B, 1.5T or 2e9</source>
        <translation>应为数量，例如 20 亿、1.5 万亿、300B 或 2e9</translation>
    </message>
    <message>
        <source>&apos;{text}&apos; is not a count; use e.g. 300B, 1.5T or 2e9</source>
        <translation>“{text}”不是数量；请填写例如 20 亿、1.5 万亿、300B 或 2e9</translation>
    </message>
    <message>
        <source>&apos;{text}…&apos; is too large</source>
        <translation>“{text}…”太大</translation>
    </message>
    <message>
        <source>{n} months</source>
        <translation>{n} 个月</translation>
    </message>
    <message>
        <source>{n} hours</source>
        <translation>{n} 小时</translation>
    </message>
    <message>
        <source>{n} days</source>
        <translation>{n} 天</translation>
    </message>
    <message>
        <source>{n} weeks</source>
        <translation>{n} 周</translation>
    </message>
    <message>
        <source>{n} hour</source>
        <translation>{n} 小时</translation>
    </message>
    <message>
        <source>{n} day</source>
        <translation>{n} 天</translation>
    </message>
    <message>
        <source>{n} week</source>
        <translation>{n} 周</translation>
    </message>
    <message>
        <source>&apos;{text}&apos; must be a finite, non-negative count</source>
        <translation>“{text}”必须是有限的非负数量</translation>
    </message>
</context>
<context>
    <name>VerifyPage</name>
    <message>
        <source>Verify server</source>
        <translation>验证服务器</translation>
    </message>
    <message>
        <source>7 · Verify the rented server</source>
        <translation>7 · 验证租用的服务器</translation>
    </message>
    <message>
        <source>Once the machines are rented: paste the output of “nvidia-smi topo -m”, run the acceptance kit on the server and import its result, and tick the vendor checklist. The measured MFU can replace the assumed one.</source>
        <translation>机器租到手后：粘贴“nvidia-smi topo -m”的输出，在服务器上运行验收测试套件并导入结果，再逐项勾选供应商核对清单。实测 MFU 可以替换假设值。</translation>
    </message>
</context>
<context>
    <name>VerifyPanel</name>
    <message>
        <source>Interconnect (nvidia-smi topo -m)</source>
        <translation>互联（nvidia-smi topo -m）</translation>
    </message>
    <message>
        <source>Paste the output of &apos;nvidia-smi topo -m&apos; from the server, or load it from a file. Green cells are NVLink, red cells cross CPU sockets.</source>
        <translation>粘贴服务器上“nvidia-smi topo -m”的输出，或从文件加载。绿色单元格为 NVLink，红色单元格表示跨 CPU 插槽。</translation>
    </message>
    <message>
        <source>Paste nvidia-smi topo -m output here</source>
        <translation>在此粘贴 nvidia-smi topo -m 的输出</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Load file…</source>
        <translation>加载文件…</translation>
    </message>
    <message>
        <source>NV# = NVLink (best) · PIX = one PCIe switch · PXB = several PCIe switches · PHB = through the CPU · NODE = between PCIe host bridges · SYS = across CPU sockets (worst)</source>
        <translation>NV# = NVLink（最好）· PIX = 同一 PCIe 交换机 · PXB = 经过多个 PCIe 交换机 · PHB = 经过 CPU · NODE = 跨 PCIe 主桥 · SYS = 跨 CPU 插槽（最差）</translation>
    </message>
    <message>
        <source>Network between nodes (ibstat / ibv_devinfo)</source>
        <translation>节点间网络（ibstat / ibv_devinfo）</translation>
    </message>
    <message>
        <source>Paste the output of &apos;ibstat&apos; or &apos;ibv_devinfo -v&apos; from one node: each port&apos;s link layer (InfiniBand, or Ethernet = RoCE), state and rate are checked against the plan&apos;s network.</source>
        <translation>粘贴一个节点上“ibstat”或“ibv_devinfo -v”的输出：按方案的网络检查每个端口的链路层（InfiniBand，或 Ethernet 即 RoCE）、状态和速率。</translation>
    </message>
    <message>
        <source>Paste ibstat or ibv_devinfo output here</source>
        <translation>在此粘贴 ibstat 或 ibv_devinfo 的输出</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>Link layer</source>
        <translation>链路层</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Gb/s</source>
        <translation>Gb/s</translation>
    </message>
    <message>
        <source>Health of the cards</source>
        <translation>加速卡健康状况</translation>
    </message>
    <message>
        <source>Paste &apos;nvidia-smi -q&apos;, &apos;npu-smi info&apos;, &apos;rocm-smi&apos; or the kernel log (Xid errors): temperatures, throttling, power caps, ECC errors, other processes and driver versions are checked.</source>
        <translation>粘贴“nvidia-smi -q”、“npu-smi info”、“rocm-smi”或内核日志（Xid 错误）：检查温度、降频、功耗上限、ECC 错误、其他进程和驱动版本。</translation>
    </message>
    <message>
        <source>Paste nvidia-smi -q, npu-smi info, rocm-smi or dmesg output here</source>
        <translation>在此粘贴 nvidia-smi -q、npu-smi info、rocm-smi 或 dmesg 的输出</translation>
    </message>
    <message>
        <source>Nodes:</source>
        <translation>节点数：</translation>
    </message>
    <message>
        <source>More than one node: the kit runs with torchrun on every node and measures the network between them</source>
        <translation>多于一个节点时：套件在每个节点上用 torchrun 运行，并测量节点间网络</translation>
    </message>
    <message>
        <source>Acceptance test kit</source>
        <translation>验收测试套件</translation>
    </message>
    <message>
        <source>Export a test script, run it on the rented server with &apos;bash kit.sh&apos; (it needs only Python and PyTorch), then import the JSON file it writes. The measured MFU can replace the assumed one.</source>
        <translation>导出测试脚本，在租用的服务器上用“bash kit.sh”运行（只需要 Python 和 PyTorch），然后导入它生成的 JSON 文件。实测 MFU 可以替换假设值。</translation>
    </message>
    <message>
        <source>Export test script…</source>
        <translation>导出测试脚本…</translation>
    </message>
    <message>
        <source>Import result…</source>
        <translation>导入结果…</translation>
    </message>
    <message>
        <source>Use measured MFU in the plan</source>
        <translation>在方案中使用实测 MFU</translation>
    </message>
    <message>
        <source>Before (assumed MFU)</source>
        <translation>之前（假设 MFU）</translation>
    </message>
    <message>
        <source>After (measured MFU)</source>
        <translation>之后（实测 MFU）</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Tokens/s per GPU</source>
        <translation>单卡 Tokens/s</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>Card-hours</source>
        <translation>卡时</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <source>Blue: measured · grey dashes: linear scaling</source>
        <translation>蓝色：实测 · 灰色虚线：线性扩展</translation>
    </message>
    <message>
        <source>Measured scaling appears here: export the test script, run it on the rented server and import the result file it writes.</source>
        <translation>实测的扩展效率显示在这里：导出测试脚本，在租用的服务器上运行，然后导入它生成的结果文件。</translation>
    </message>
    <message>
        <source>Vendor checklist</source>
        <translation>供应商核对清单</translation>
    </message>
    <message>
        <source>Notes (what the vendor said, quote, date)</source>
        <translation>备注（供应商的答复、报价、日期）</translation>
    </message>
    <message>
        <source>Record this measurement: it calibrates the plans on the GPU it ran on, through their own layouts</source>
        <translation>记录这次测量：它只按各方案自身的并行布局，校准在同一型号 GPU 上的方案</translation>
    </message>
    <message>
        <source>Open nvidia-smi topo -m output</source>
        <translation>打开 nvidia-smi topo -m 输出</translation>
    </message>
    <message>
        <source>Text files (*.txt *.log);;All files (*)</source>
        <translation>文本文件 (*.txt *.log);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot read the file: {0}</source>
        <translation>无法读取文件：{0}</translation>
    </message>
    <message>
        <source>Cannot read this output: {0}</source>
        <translation>无法解析此输出：{0}</translation>
    </message>
    <message>
        <source>Open ibstat or ibv_devinfo output</source>
        <translation>打开 ibstat 或 ibv_devinfo 输出</translation>
    </message>
    <message>
        <source>InfiniBand</source>
        <translation>InfiniBand</translation>
    </message>
    <message>
        <source>RoCE</source>
        <translation>RoCE</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>活动</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>断开</translation>
    </message>
    <message>
        <source>Initializing</source>
        <translation>初始化中</translation>
    </message>
    <message>
        <source>Armed</source>
        <translation>就绪（Armed）</translation>
    </message>
    <message>
        <source>Open nvidia-smi -q, npu-smi, rocm-smi or dmesg output</source>
        <translation>打开 nvidia-smi -q、npu-smi、rocm-smi 或 dmesg 输出</translation>
    </message>
    <message>
        <source>{0}: {1} card(s)</source>
        <translation>{0}：{1} 张卡</translation>
    </message>
    <message>
        <source>Kernel log: {0} Xid event(s)</source>
        <translation>内核日志：{0} 个 Xid 事件</translation>
    </message>
    <message>
        <source>driver {0}</source>
        <translation>驱动 {0}</translation>
    </message>
    <message>
        <source>Describe the training task first</source>
        <translation>请先描述训练任务</translation>
    </message>
    <message>
        <source>Cannot write {0}: {1}</source>
        <translation>无法写入 {0}：{1}</translation>
    </message>
    <message>
        <source>Export test script</source>
        <translation>导出测试脚本</translation>
    </message>
    <message>
        <source>Shell scripts (*.sh);;All files (*)</source>
        <translation>Shell 脚本 (*.sh);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Saved {0}. Copy it to every node and run: bash {1} --master ADDRESS_OF_NODE_0 (it prints the command for each node)</source>
        <translation>已保存 {0}。把它复制到每个节点并运行：bash {1} --master 节点0的地址（它会打印每个节点要运行的命令）</translation>
    </message>
    <message>
        <source>Saved {0}. Run it on the server with: bash {1}</source>
        <translation>已保存 {0}。在服务器上运行：bash {1}</translation>
    </message>
    <message>
        <source>Cannot import the result: {0}</source>
        <translation>无法导入结果：{0}</translation>
    </message>
    <message>
        <source>Imported {0}</source>
        <translation>已导入 {0}</translation>
    </message>
    <message>
        <source>Imported {0}. Not applied to this plan: {1}</source>
        <translation>已导入 {0}。未用于本方案：{1}</translation>
    </message>
    <message>
        <source>Cannot analyse the result: {0}</source>
        <translation>无法分析结果：{0}</translation>
    </message>
    <message>
        <source>Import kit result</source>
        <translation>导入测试结果</translation>
    </message>
    <message>
        <source>JSON files (*.json);;All files (*)</source>
        <translation>JSON 文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>{0} of {1} checked</source>
        <translation>已核对 {0}/{1} 项</translation>
    </message>
    <message>
        <source>Answer, date</source>
        <translation>答复、日期</translation>
    </message>
</context>
<context>
    <name>catalog</name>
    <message>
        <source>cannot read resource file {name}: {err}</source>
        <translation>无法读取资源文件 {name}：{err}</translation>
    </message>
    <message>
        <source>malformed resource file {name}</source>
        <translation>资源文件 {name} 格式错误</translation>
    </message>
    <message>
        <source>malformed resource file {name}: {what}</source>
        <translation>资源文件 {name} 格式错误：{what}</translation>
    </message>
    <message>
        <source>entered by the user</source>
        <translation>用户输入</translation>
    </message>
    <message>
        <source>unknown GPU &apos;{id}&apos;; run `gpuplanner gpus` for the ids</source>
        <translation>未知的 GPU“{id}”；运行 `gpuplanner gpus` 查看可用 ID</translation>
    </message>
    <message>
        <source> (did you mean: {ids}?)</source>
        <translation>（你是不是要找：{ids}？）</translation>
    </message>
    <message>
        <source>unknown precision &apos;{p}&apos;; use one of {all}</source>
        <translation>未知的精度“{p}”；请使用以下之一：{all}</translation>
    </message>
    <message>
        <source>unknown network &apos;{id}&apos;; known: {ids}</source>
        <translation>未知的网络“{id}”；已知：{ids}</translation>
    </message>
    <message>
        <source>unknown network &apos;{id}&apos; (did you mean: {ids}?)</source>
        <translation>未知的网络“{id}”（你是不是要找：{ids}？）</translation>
    </message>
    <message>
        <source>intra-node bandwidth must be a positive number of GB/s</source>
        <translation>节点内带宽必须是以 GB/s 为单位的正数</translation>
    </message>
    <message>
        <source>GPU &apos;{id}&apos; has no NVLink</source>
        <translation>GPU“{id}”没有 NVLink</translation>
    </message>
    <message>
        <source>network &apos;{id}&apos; is an inter-node fabric, not an intra-node link</source>
        <translation>网络“{id}”是节点间网络，不是节点内链路</translation>
    </message>
    <message>
        <source>unknown currency &apos;{c}&apos;; use CNY or USD</source>
        <translation>未知币种“{c}”；请使用 CNY 或 USD</translation>
    </message>
    <message>
        <source>no CNY/USD exchange rate set; enter one to convert prices</source>
        <translation>未设置人民币/美元汇率；请填写汇率以换算价格</translation>
    </message>
    <message>
        <source>unknown region &apos;{r}&apos;; use mainland_china or worldwide</source>
        <translation>未知地区“{r}”；请使用 mainland_china 或 worldwide</translation>
    </message>
    <message>
        <source>unknown economics default &apos;{k}&apos;; known: {all}</source>
        <translation>未知的经济参数默认项“{k}”；已知：{all}</translation>
    </message>
    <message>
        <source>NVLink 2 (V100, 6 links)</source>
        <translation>NVLink 2（V100，6 条链路）</translation>
    </message>
    <message>
        <source>NVLink 3 via NVSwitch (A100, 12 links, NV12)</source>
        <translation>NVLink 3 经 NVSwitch（A100，12 条链路，NV12）</translation>
    </message>
    <message>
        <source>NVLink 3 cut to 8 links (A800, NV8)</source>
        <translation>NVLink 3 削减为 8 条链路（A800，NV8）</translation>
    </message>
    <message>
        <source>NVLink 4 via NVSwitch (H100/H200/H20, 18 links, NV18)</source>
        <translation>NVLink 4 经 NVSwitch（H100/H200/H20，18 条链路，NV18）</translation>
    </message>
    <message>
        <source>NVLink 4 cut to 8 links (H800, NV8)</source>
        <translation>NVLink 4 削减为 8 条链路（H800，NV8）</translation>
    </message>
    <message>
        <source>NVLink 5 (B200/GB200, 18 links, NV18)</source>
        <translation>NVLink 5（B200/GB200，18 条链路，NV18）</translation>
    </message>
    <message>
        <source>NVLink bridge pair (A100 PCIe, 2 GPUs)</source>
        <translation>NVLink 桥接对（A100 PCIe，2 张 GPU）</translation>
    </message>
    <message>
        <source>NVLink bridge pair (H100 PCIe / NVL, 2 GPUs)</source>
        <translation>NVLink 桥接对（H100 PCIe / NVL，2 张 GPU）</translation>
    </message>
    <message>
        <source>AMD Infinity Fabric, 7 links x 128 GB/s, 8-GPU full mesh (MI300X)</source>
        <translation>AMD Infinity Fabric，7 条链路 × 128 GB/s，8 卡全互联（MI300X）</translation>
    </message>
    <message>
        <source>PCIe Gen3 x16</source>
        <translation>PCIe 3.0 x16</translation>
    </message>
    <message>
        <source>PCIe Gen4 x16</source>
        <translation>PCIe 4.0 x16</translation>
    </message>
    <message>
        <source>PCIe Gen5 x16</source>
        <translation>PCIe 5.0 x16</translation>
    </message>
    <message>
        <source>InfiniBand NDR 400 Gb/s (ConnectX-7, Quantum-2)</source>
        <translation>InfiniBand NDR 400 Gb/s（ConnectX-7，Quantum-2）</translation>
    </message>
    <message>
        <source>InfiniBand HDR 200 Gb/s (QSFP56)</source>
        <translation>InfiniBand HDR 200 Gb/s（QSFP56）</translation>
    </message>
    <message>
        <source>InfiniBand EDR 100 Gb/s</source>
        <translation>InfiniBand EDR（100 Gb/s）</translation>
    </message>
    <message>
        <source>InfiniBand XDR 800 Gb/s</source>
        <translation>InfiniBand XDR（800 Gb/s）</translation>
    </message>
    <message>
        <source>RoCE v2 400 GbE (ConnectX-7)</source>
        <translation>RoCE v2 400 GbE（ConnectX-7）</translation>
    </message>
    <message>
        <source>RoCE v2 200 GbE (ConnectX-6 Dx / ConnectX-7)</source>
        <translation>RoCE v2 200 GbE（ConnectX-6 Dx / ConnectX-7）</translation>
    </message>
    <message>
        <source>RoCE v2 100 GbE</source>
        <translation>RoCE v2 100 GbE</translation>
    </message>
    <message>
        <source>25 GbE commodity Ethernet (TCP, no RDMA)</source>
        <translation>25 GbE 普通以太网（TCP，无 RDMA）</translation>
    </message>
    <message>
        <source>nvlink</source>
        <translation>NVLink</translation>
    </message>
    <message>
        <source>pcie</source>
        <translation>PCIe</translation>
    </message>
    <message>
        <source>nvlink-bridge</source>
        <translation>NVLink 桥接</translation>
    </message>
    <message>
        <source>infinity-fabric</source>
        <translation>Infinity Fabric</translation>
    </message>
    <message>
        <source>hccs</source>
        <translation>HCCS</translation>
    </message>
    <message>
        <source>mlu-link</source>
        <translation>MLU-Link</translation>
    </message>
</context>
<context>
    <name>gpus</name>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>memory GiB</source>
        <translation>显存 GiB</translation>
    </message>
    <message>
        <source>BF16 TFLOPS (dense)</source>
        <translation>BF16 TFLOPS（稠密）</translation>
    </message>
    <message>
        <source>memory bandwidth TB/s</source>
        <translation>显存带宽 TB/s</translation>
    </message>
    <message>
        <source>link (both directions)</source>
        <translation>互联（双向）</translation>
    </message>
</context>
</TS>
