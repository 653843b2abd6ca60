<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name></name>
    <message>
        <source>misses the deadline</source>
        <translation>赶不上截止时间</translation>
    </message>
    <message>
        <source>over budget</source>
        <translation>超出预算</translation>
    </message>
    <message>
        <source>TP {0} · PP {1} · CP {2} · EP {3} · DP {4} · ZeRO-{5} · recompute {6} · micro-batch {7} × accumulation {8} · {9} node(s) of {10}</source>
        <translation>TP {0} · PP {1} · CP {2} · EP {3} · DP {4} · ZeRO-{5} · 重计算 {6} · 微批次 {7} × 累积 {8} · {9} 个节点，每节点 {10}</translation>
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
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>{0} days · {1} tokens/s · MFU {2}</source>
        <translation>{0} 天 · {1} tokens/s · MFU {2}</translation>
    </message>
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
        <source>context-parallel communication</source>
        <translation>上下文并行通信</translation>
    </message>
    <message>
        <source>expert all-to-all</source>
        <translation>专家 all-to-all 通信</translation>
    </message>
    <message>
        <source>optimizer step and other</source>
        <translation>优化器步骤及其他</translation>
    </message>
    <message>
        <source>pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
</context>
<context>
    <name>BudgetPage</name>
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
        <source>Usable GPU hours per week (168 = around the clock)</source>
        <translation>每周可用的 GPU 小时数（168 = 全天候）</translation>
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
        <translation>GPU 数</translation>
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
</context>
<context>
    <name>ChartBase</name>
    <message>
        <source>Export chart as PNG</source>
        <translation>将图表导出为 PNG</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图片 (*.png)</translation>
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
    <name>Cost</name>
    <message>
        <source>card-hours on demand</source>
        <translation>按卡时计费（按需）</translation>
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
        <translation>按卡时计费（每周封顶）</translation>
    </message>
    <message>
        <source>card-hours with a monthly cap</source>
        <translation>按卡时计费（每月封顶）</translation>
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
        <source>At these prices a whole machine per week never beats card-hours (it would need {x:.0f} hours per week).</source>
        <translation>按这些价格，整机周租永远不如按卡时计费（需要每周 {x:.0f} 小时）。</translation>
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
        <source>Over {months:.0f} months building costs {own:,.0f} {cur} against {rent:,.0f} {cur} renting; the purchase pays for itself after {be:.1f} months.</source>
        <translation>{months:.0f} 个月内自建需 {own:,.0f} {cur}，租用需 {rent:,.0f} {cur}；购买在 {be:.1f} 个月后回本。</translation>
    </message>
    <message>
        <source>Rent: over {months:.0f} months renting costs {rent:,.0f} {cur} against {own:,.0f} {cur} to build; buying would only break even after {be:.1f} months.</source>
        <translation>建议租用：{months:.0f} 个月内租用需 {rent:,.0f} {cur}，自建需 {own:,.0f} {cur}；购买要 {be:.1f} 个月后才能回本。</translation>
    </message>
    <message>
        <source>Rent: over {months:.0f} months renting costs {rent:,.0f} {cur} against {own:,.0f} {cur} to build, and running your own machines costs more per month than renting them, so buying never breaks even.</source>
        <translation>建议租用：{months:.0f} 个月内租用需 {rent:,.0f} {cur}，自建需 {own:,.0f} {cur}；而且自有机器每月的运营成本高于租金，购买永远无法回本。</translation>
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
        <source>Pareto front</source>
        <translation>帕累托前沿</translation>
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
        <source>cost ({0})</source>
        <translation>成本（{0}）</translation>
    </message>
    <message>
        <source>Plans with a cost and a duration appear here when the search finishes.</source>
        <translation>搜索完成后，带成本和时长的方案会显示在这里。</translation>
    </message>
    <message>
        <source>deadline</source>
        <translation>截止时间</translation>
    </message>
    <message>
        <source>budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>#{0} {1} × {2}&lt;br&gt;{3} days, {4} {5}</source>
        <translation>#{0} {1} × {2}&lt;br&gt;{3} 天，{4} {5}</translation>
    </message>
</context>
<context>
    <name>CustomGpuDialog</name>
    <message>
        <source>Add a custom GPU</source>
        <translation>添加自定义 GPU</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Memory (GiB)</source>
        <translation>显存 (GiB)</translation>
    </message>
    <message>
        <source>Dense BF16 TFLOPS</source>
        <translation>稠密 BF16 TFLOPS</translation>
    </message>
    <message>
        <source>Interconnect</source>
        <translation>互联</translation>
    </message>
    <message>
        <source>TDP (W)</source>
        <translation>TDP (W)</translation>
    </message>
    <message>
        <source>Price per card-hour</source>
        <translation>每卡时价格</translation>
    </message>
    <message>
        <source>{0} is required</source>
        <translation>{0}为必填项</translation>
    </message>
    <message>
        <source>{0} must be more than zero</source>
        <translation>{0}必须大于零</translation>
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
        <source>TFLOPS</source>
        <translation>TFLOPS</translation>
    </message>
    <message>
        <source>TDP</source>
        <translation>TDP</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
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
        <source>Tokens in one pass, e.g. 300B, 1.5T or 2e9: time and cost grow linearly</source>
        <translation>单轮的 token 数，例如 300B、1.5T 或 2e9：时间和成本随之线性增长</translation>
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
        <source>Average tokens per example after tokenisation</source>
        <translation>分词后每个样本的平均 token 数</translation>
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
        <translation>轮数 (epoch)</translation>
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
        <translation>总算力需求 (6·N·D)</translation>
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
        <source>{0} FLOPs</source>
        <translation>{0} FLOPs</translation>
    </message>
    <message>
        <source>Compute-optimal hint (Chinchilla, ≈20 tokens per parameter): about {0} tokens for this model; you have {1} tokens per parameter.</source>
        <translation>算力最优提示（Chinchilla，每个参数 ≈20 个 token）：该模型约需 {0} token；你目前每个参数 {1} 个 token。</translation>
    </message>
    <message>
        <source>Fine-tuning: the data volume is whatever your task needs; the 20-tokens-per-parameter rule applies to pretraining only.</source>
        <translation>微调：数据量按任务需要而定；“每个参数 20 个 token”的经验法则只适用于预训练。</translation>
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
        <source>Custom GPUs are listed for comparison; the estimate uses catalog GPUs only</source>
        <translation>自定义 GPU 仅用于对比；估算只使用目录中的 GPU</translation>
    </message>
    <message>
        <source>{0} (custom)</source>
        <translation>{0}（自定义）</translation>
    </message>
    <message>
        <source>your entry</source>
        <translation>你的输入</translation>
    </message>
    <message>
        <source>Price &apos;{0}&apos; for {1} is not a number; it was not changed.</source>
        <translation>{1} 的价格“{0}”不是数字；未作修改。</translation>
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
        <source>Memory GiB</source>
        <translation>显存 GiB</translation>
    </message>
    <message>
        <source>BF16 TFLOPS</source>
        <translation>BF16 TFLOPS</translation>
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
        <source>{0}/card-hour</source>
        <translation>{0}/卡时</translation>
    </message>
    <message>
        <source>{0}/card-week</source>
        <translation>{0}/卡周</translation>
    </message>
    <message>
        <source>{0}/card-month</source>
        <translation>{0}/卡月</translation>
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
        <source>Dense BF16 tensor throughput (no sparsity)</source>
        <translation>稠密 BF16 Tensor 吞吐量（不含稀疏）</translation>
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
        <source>Let the search consider every catalog GPU</source>
        <translation>让搜索考虑目录中的所有 GPU</translation>
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
        <source>Grey prices are derived from another rental mode without a discount; bold prices are your quotes.</source>
        <translation>灰色价格由另一种租用方式推算，未计折扣；粗体价格是你的报价。</translation>
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
        <source>{0} of {1} GiB per GPU — {2}</source>
        <translation>单卡 {0} / {1} GiB — {2}</translation>
    </message>
    <message>
        <source>{0} days on {1} × {2} · MFU {3}</source>
        <translation>{1} × {2} 上需 {0} 天 · MFU {3}</translation>
    </message>
    <message>
        <source>{0} × {1}</source>
        <translation>{0} × {1}</translation>
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
</context>
<context>
    <name>MainWindow</name>
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
        <source>Steps: click any step, or press Ctrl+1 … Ctrl+6</source>
        <translation>步骤：点击任意步骤，或按 Ctrl+1 … Ctrl+6</translation>
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
    <message>
        <source>{0} plans</source>
        <translation>{0} 个方案</translation>
    </message>
    <message>
        <source>Plan search failed</source>
        <translation>方案搜索失败</translation>
    </message>
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
        <source>Plan files are not available in this build.</source>
        <translation>此版本不支持方案文件。</translation>
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
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>Recover unsaved work?</source>
        <translation>恢复未保存的工作？</translation>
    </message>
    <message>
        <source>GPU Planner did not close cleanly last time. Recover this plan?

{0}</source>
        <translation>GPU Planner 上次未正常关闭。要恢复这个方案吗？

{0}</translation>
    </message>
    <message>
        <source>Cannot recover</source>
        <translation>无法恢复</translation>
    </message>
    <message>
        <source>Export charts to folder</source>
        <translation>将图表导出到文件夹</translation>
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
        <source>The printable report is not available yet.</source>
        <translation>可打印的报告暂不可用。</translation>
    </message>
    <message>
        <source>About GPU Planner</source>
        <translation>关于 GPU Planner</translation>
    </message>
    <message>
        <source>&lt;b&gt;GPU Planner {0}&lt;/b&gt;&lt;p&gt;Describe the training task; GPU Planner derives what to rent. Offline: it never touches the network. Every formula and catalog number names its source.&lt;/p&gt;</source>
        <translation>&lt;b&gt;GPU Planner {0}&lt;/b&gt;&lt;p&gt;描述你的训练任务，GPU Planner 推算出该租什么。完全离线：从不访问网络。每个公式和目录数据都注明了来源。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>MemoryChart</name>
    <message>
        <source>Memory per GPU (GiB)</source>
        <translation>单卡显存 (GiB)</translation>
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
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>Current</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>no RC</source>
        <translation>不重算</translation>
    </message>
    <message>
        <source>sel. RC</source>
        <translation>选择性重算</translation>
    </message>
    <message>
        <source>full RC</source>
        <translation>完全重算</translation>
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
        <source>Hidden size</source>
        <translation>隐藏层维度</translation>
    </message>
    <message>
        <source>Width of the residual stream (d_model); weights grow with its square</source>
        <translation>残差流宽度 (d_model)；权重随其平方增长</translation>
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
        <translation>键/值头数 (GQA)；头数越少，K/V 投影越小</translation>
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
        <translation>专家数 (MoE)</translation>
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
        <source>Preset: {0} — source: {1} ({2})</source>
        <translation>预设：{0} — 来源：{1}（{2}）</translation>
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
        <source>Scale tier of the model (by total parameters)</source>
        <translation>模型的规模档位（按总参数量）</translation>
    </message>
    <message>
        <source>{0} parameters exactly</source>
        <translation>精确参数量 {0}</translation>
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
        <translation>专家 all-to-all 通信</translation>
    </message>
    <message>
        <source>the optimizer step and other memory-bound work</source>
        <translation>优化器步骤及其他访存受限的工作</translation>
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
        <source>Configurations that fit, ranked. ★ marks the Pareto front (nothing else is both cheaper and faster). Select a plan to see its details and adopt it in the live charts; click a column to sort.</source>
        <translation>放得下的配置，已排序。★ 表示帕累托前沿（没有别的方案既更便宜又更快）。选中一个方案可查看详情并在实时图表中采用；点击列标题可排序。</translation>
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
        <translation>GPU 数</translation>
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
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>{0} plans shown; {1} of {2} configurations fit ({3} ms).</source>
        <translation>显示 {0} 个方案；{2} 个配置中有 {1} 个放得下（{3} 毫秒）。</translation>
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
        <source>Against #{0} ({1} × {2}): {3}.</source>
        <translation>与 #{0}（{1} × {2}）相比：{3}。</translation>
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
        <source>it costs {0} {1} less ({2}% cheaper)</source>
        <translation>便宜 {0} {1}（省 {2}%）</translation>
    </message>
    <message>
        <source>it costs {0} {1} more</source>
        <translation>贵 {0} {1}</translation>
    </message>
    <message>
        <source>it finishes {0} days sooner</source>
        <translation>早 {0} 天完成</translation>
    </message>
    <message>
        <source>it takes {0} days longer</source>
        <translation>多用 {0} 天</translation>
    </message>
    <message>
        <source>&lt;p&gt;No plan selected.&lt;/p&gt;</source>
        <translation>&lt;p&gt;未选择方案。&lt;/p&gt;</translation>
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
        <source>card: {cap} GiB</source>
        <translation>显卡：{cap} GiB</translation>
    </message>
    <message>
        <source>{v} GiB used</source>
        <translation>已用 {v} GiB</translation>
    </message>
    <message>
        <source>budget</source>
        <translation>预算</translation>
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
        <source>LoRA fine-tuning</source>
        <translation>LoRA 微调</translation>
    </message>
    <message>
        <source>QLoRA fine-tuning</source>
        <translation>QLoRA 微调</translation>
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
        <source>sequence {s}, global batch {g} sequences, recompute {r}</source>
        <translation>序列长度 {s}，全局批次 {g} 条序列，重计算 {r}</translation>
    </message>
    <message>
        <source>{total} total, {active} active per token, {train} trained</source>
        <translation>总计 {total}，每 token 激活 {active}，训练 {train}</translation>
    </message>
    <message>
        <source>{f} FLOPs ({fpt} per token)</source>
        <translation>{f} FLOPs（每 token {fpt}）</translation>
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
        <source>best value</source>
        <translation>性价比最高</translation>
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
        <source>Headroom kept free</source>
        <translation>预留余量</translation>
    </message>
    <message>
        <source>Card memory</source>
        <translation>单卡显存</translation>
    </message>
    <message>
        <source>Rent {n} × {gpu} ({nodes} node(s) of {per}).</source>
        <translation>租用 {n} × {gpu}（{nodes} 个节点，每节点 {per} 张）。</translation>
    </message>
    <message>
        <source>Training takes about {d} days</source>
        <translation>训练约需 {d} 天</translation>
    </message>
    <message>
        <source>and costs about {c} ({mode}).</source>
        <translation>，费用约 {c}（{mode}）。</translation>
    </message>
    <message>
        <source>in node: {link}</source>
        <translation>节点内：{link}</translation>
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
        <source>{n} GPUs, {nodes} node(s) × {per}</source>
        <translation>{n} 张 GPU，{nodes} 个节点 × {per}</translation>
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
        <source>{m} GiB of {cap} GiB ({free} GiB free)</source>
        <translation>{m} GiB / {cap} GiB（剩余 {free} GiB）</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>训练时长</translation>
    </message>
    <message>
        <source>{d} days ({h} GPU-hours)</source>
        <translation>{d} 天（{h} 卡时）</translation>
    </message>
    <message>
        <source>{c} days on the clock with setup, checkpoints and interruptions</source>
        <translation>计入环境搭建、检查点和中断后，实际日历时间 {c} 天</translation>
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
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>tensor-parallel communication</source>
        <translation>张量并行通信</translation>
    </message>
    <message>
        <source>data-parallel communication</source>
        <translation>数据并行通信</translation>
    </message>
    <message>
        <source>pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>share</source>
        <translation>占比</translation>
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
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>Compared with the chosen plan</source>
        <translation>与所选方案相比</translation>
    </message>
    <message>
        <source>Memory per GPU: the parts of each plan&apos;s memory, and the card&apos;s capacity (dashed).</source>
        <translation>单卡显存：各方案的显存构成，以及显卡容量（虚线）。</translation>
    </message>
    <message>
        <source>Scaling: training days with more or fewer GPUs of the chosen type (same layout, more data-parallel copies), against ideal linear scaling.</source>
        <translation>扩展性：所选型号 GPU 增减时的训练天数（布局不变，数据并行副本数变化），与理想线性扩展对比。</translation>
    </message>
    <message>
        <source>Cost against time: each point is a plan at its cheapest rental mode; the filled square is the chosen plan.</source>
        <translation>成本与时间：每个点是一个方案在其最便宜租用方式下的结果；实心方块是所选方案。</translation>
    </message>
    <message>
        <source>GPU: {gpu}, at least {m} GiB of memory per GPU (this plan needs {m} GiB including headroom); {n} GPUs.</source>
        <translation>GPU：{gpu}，单卡显存至少 {m} GiB（此方案含余量需要 {m} GiB）；共 {n} 张 GPU。</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
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
</context>
<context>
    <name>ScalingChart</name>
    <message>
        <source>Scaling with GPU count</source>
        <translation>随 GPU 数量的扩展</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>tokens/s</translation>
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
        <source>deadline {0} days: far above every point</source>
        <translation>截止时间 {0} 天：远高于所有数据点</translation>
    </message>
    <message>
        <source>deadline needs {0} tokens/s: met at every count</source>
        <translation>截止时间需要 {0} tokens/s：所有 GPU 数都能满足</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>Scaling needs the time model (not available yet).</source>
        <translation>扩展曲线需要时间模型（暂不可用）。</translation>
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
        <source>{0}: {1} GPUs → {2} {3}</source>
        <translation>{0}：{1} 张 GPU → {2} {3}</translation>
    </message>
    <message>
        <source>deadline ({0} days)</source>
        <translation>截止时间（{0} 天）</translation>
    </message>
    <message>
        <source>needed for the deadline: {0} tokens/s</source>
        <translation>赶上截止时间需要：{0} tokens/s</translation>
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
</context>
<context>
    <name>Timing</name>
    <message>
        <source>no {p} peak in the catalog; using the {o} figure</source>
        <extracomment>Sustained fraction of dense peak on the GEMMs of large training layers, by GPU generation. Ampere/Hopper: gpu-catalog.md §4.1 (see module docstring). Ada and consumer Blackwell: no public MFU figure (gpu-catalog.md §4.1 last row); assumed equal to Ampere, whose ratio of FLOPs to memory bandwidth is similar. Datacenter Blackwell: assumed equal to Hopper (no figure in the reference). Volta: assumed equal to Ampere. CDNA3 (MI300X): Hopper × (MAMF 51–60% / H100 MAMF 80.3%) ≈ 0.38 (stas00 MAMF table in gpu-catalog.md §4.1). Others (Ascend, Cambricon, unknown): 0.40, a cautious default with no source (users should set assumptions.mfu). FP8 matmuls reach a lower share of their (doubled) peak: llm-foundry FP8 3B ~28–30% of FP8 peak vs ~42% of BF16 peak for BF16 runs; Llama 4 ~20% of FP8 peak (gpu-catalog.md §4.1): ratio ≈ 0.7. GEMM size saturation constants (module docstring): per-GPU width and tokens per micro-batch. Achievable fraction of HBM bandwidth for streaming kernels (STREAM-like copies reach 80–90% of the datasheet bandwidth on A100/H100: NVIDIA CUDA samples bandwidthTest; stas00 ml-engineering &quot;compute&quot;). Element-wise traffic of an unfused (eager PyTorch) decoder layer relative to fused kernels: an eager RMSNorm/LayerNorm is ~5 kernels in fp32 instead of one (HF ``LlamaRMSNorm`` upcasts, squares, means, rsqrt-multiplies, downcasts); SwiGLU 2 kernels instead of 1; RoPE 6. Judgement from counting kernels. Fallback NCCL all-reduce busbw as a fraction of the one-way link bandwidth when the catalog has no measurement: NVLink A100 200/300 = 0.67, H100 370/450 = 0.82 → 0.7; PCIe Gen5 28/64 = 0.44 → 0.4 (networks.json measurements, gpu-catalog.md §4.2). Default inter-node fabric per GPU generation when ``hardware.inter_node`` is not given (gpu-catalog.md §2.2: &quot;A100 class uses 1 × 200G per GPU; H100/H200/B200 class uses 1 × 400G per GPU&quot;). PCIe boxes: the reference has no sourced figure; its 8×4090 example has 2 NICs (§2.5), speed unknown; we assume 2 × 100 GbE RoCE (a judgement: set hardware.inter_node/nics_per_node for your servers). AdamW update traffic per parameter on its shard: read gradient (4), master weight (4), two moments (8); write master and moments (12) and the 16-bit working copy (2): 30 bytes (Megatron/DeepSpeed fused Adam; one pass). 8-bit Adam keeps 1-byte moments: 18; SGD with momentum 18; Adafactor ~16.</extracomment>
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
        <source>Recompute activations in the backward pass instead of storing them: saves memory, costs about a third more compute when full</source>
        <translation>在反向传播时重计算激活值而不是保存它们：节省显存，完全重计算时多花约三分之一的算力</translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation>Flash attention</translation>
    </message>
    <message>
        <source>Fused attention that never stores the seq×seq score matrix: big memory saving at long sequences</source>
        <translation>融合的注意力算子，从不存储 seq×seq 分数矩阵：长序列下大幅节省显存</translation>
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
        <source>Which linear layers get adapters</source>
        <translation>哪些线性层加适配器</translation>
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
        <translation>张量并行 (TP)</translation>
    </message>
    <message>
        <source>Splits every layer&apos;s matrices over TP GPUs: divides weights and activations, needs fast links (keep it inside an NVLink node)</source>
        <translation>把每层的矩阵切分到 TP 张 GPU 上：分摊权重和激活值，需要高速互联（应限制在一个 NVLink 节点内）</translation>
    </message>
    <message>
        <source>Pipeline parallel (PP)</source>
        <translation>流水线并行 (PP)</translation>
    </message>
    <message>
        <source>Splits the layers into PP stages: divides weights; adds a pipeline bubble</source>
        <translation>把各层分成 PP 个阶段：分摊权重；会带来流水线气泡</translation>
    </message>
    <message>
        <source>Context parallel (CP)</source>
        <translation>上下文并行 (CP)</translation>
    </message>
    <message>
        <source>Splits each sequence over CP GPUs: divides activations at long context</source>
        <translation>把每条序列切分到 CP 张 GPU 上：长上下文时分摊激活值</translation>
    </message>
    <message>
        <source>Expert parallel (EP)</source>
        <translation>专家并行 (EP)</translation>
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
        <source>Keep optimizer states in CPU memory (slower steps)</source>
        <translation>把优化器状态放在 CPU 内存中（单步更慢）</translation>
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
        <source>global batch</source>
        <translation>全局批次</translation>
    </message>
    <message>
        <source>gradient accumulation</source>
        <translation>梯度累积</translation>
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
        <source>sequences</source>
        <translation>条序列</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步</translation>
    </message>
    <message>
        <source>use flash attention</source>
        <translation>使用 flash attention</translation>
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
        <source>Per optimizer step: {0} sequences = {1} tokens (micro-batch {2} × data-parallel {3} × accumulation {4}).</source>
        <translation>每个优化器步骤：{0} 条序列 = {1} token（微批次 {2} × 数据并行 {3} × 累积 {4}）。</translation>
    </message>
    <message>
        <source>The plan search chooses the layout. The charts show the layout now adopted: {0} × {1}, TP {2} · PP {3} · DP {4} · ZeRO-{5}.</source>
        <translation>由方案搜索选择布局。图表显示当前采用的布局：{0} × {1}，TP {2} · PP {3} · DP {4} · ZeRO-{5}。</translation>
    </message>
    <message>
        <source>Data-parallel degree = GPUs ÷ (TP × PP × CP) = {0}.</source>
        <translation>数据并行度 = GPU 数 ÷ (TP × PP × CP) = {0}。</translation>
    </message>
</context>
<context>
    <name>VerifyPanel</name>
    <message>
        <source>Interconnect (nvidia-smi topo -m)</source>
        <extracomment>Cell colours by link class (gpu-catalog.md §2.4 order NV# &gt; PIX &gt; PXB &gt; PHB &gt; NODE &gt; SYS).</extracomment>
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
        <source>GPU-hours</source>
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
        <source>Vendor checklist</source>
        <translation>供应商核对清单</translation>
    </message>
    <message>
        <source>Notes (what the vendor said, quote, date)</source>
        <translation>备注（供应商的答复、报价、日期）</translation>
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
</context>
<context>
    <name>self.page</name>
    <message>
        <source>the deadline must be after today</source>
        <translation>截止时间必须晚于今天</translation>
    </message>
</context>
</TS>
