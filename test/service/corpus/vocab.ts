// Vocabularies per discipline. Titles, abstracts and citation statements are assembled from these with
// templates, so that what the app shows reads like scholarly text of that field rather than word salad.

export type StatStyle = 'clinical' | 'biomedical' | 'computational' | 'physical' | 'social' | 'environmental';

export interface Field {
  key: string;
  /** Used as the search topic and as a keyword. */
  topic: string;
  stats: StatStyle;
  journals: ReadonlyArray<readonly [name: string, short: string]>;
  /** What is studied (noun phrases). */
  subjects: readonly string[];
  /** What is varied, given or compared (noun phrases). */
  factors: readonly string[];
  /** Who or what is studied. */
  populations: readonly string[];
  /** How it is studied. */
  methods: readonly string[];
  /** How it is measured. */
  outcomes: readonly string[];
  /** Why it happens. */
  mechanisms: readonly string[];
  /** The kind of study (for "A ... of ..." titles). */
  designs: readonly string[];
}

export const FIELDS: readonly Field[] = [
  {
    key: 'neuroscience',
    topic: 'Neuroscience',
    stats: 'biomedical',
    journals: [
      ['Journal of Cognitive Neuroscience Research', 'J Cogn Neurosci Res'],
      ['Neuroimaging Reports', 'Neuroimaging Rep'],
      ['Brain and Behavior Letters', 'Brain Behav Lett'],
      ['Cortex and Cognition', 'Cortex Cogn'],
      ['Frontiers in Affective Neuroscience', 'Front Affect Neurosci'],
    ],
    subjects: ['amygdala reactivity', 'working memory capacity', 'hippocampal neurogenesis', 'prefrontal cortical thickness', 'default mode network connectivity', 'reward prediction error signalling', 'sleep spindle density', 'dopaminergic transmission', 'synaptic plasticity', 'attentional control', 'fear extinction', 'episodic memory consolidation'],
    factors: ['chronic stress', 'ketamine administration', 'aerobic exercise', 'sleep deprivation', 'early-life adversity', 'transcranial magnetic stimulation', 'mindfulness training', 'social isolation', 'ageing', 'oxytocin administration'],
    populations: ['healthy older adults', 'adolescents with generalized anxiety disorder', 'patients with major depressive disorder', 'C57BL/6 mice', 'adult rhesus macaques', 'patients with temporal lobe epilepsy', 'university students', 'individuals at clinical high risk for psychosis'],
    methods: ['functional magnetic resonance imaging', 'diffusion tensor imaging', 'high-density electroencephalography', 'two-photon calcium imaging', 'optogenetic silencing', 'voxel-based morphometry', 'magnetoencephalography', 'whole-cell patch-clamp recordings'],
    outcomes: ['symptom severity', 'recall accuracy', 'reaction time variability', 'BOLD signal change', 'grey matter volume', 'spike timing precision', 'theta-band power'],
    mechanisms: ['prefrontal–amygdala coupling', 'NMDA receptor-dependent long-term potentiation', 'glucocorticoid signalling', 'thalamocortical oscillations', 'microglial synaptic pruning', 'BDNF expression'],
    designs: ['longitudinal cohort study', 'randomized crossover trial', 'cross-sectional imaging study', 'meta-analysis', 'case–control study'],
  },
  {
    key: 'oncology',
    topic: 'Oncology',
    stats: 'clinical',
    journals: [
      ['Journal of Translational Oncology', 'J Transl Oncol'],
      ['Clinical Cancer Investigations', 'Clin Cancer Invest'],
      ['Tumour Biology and Therapy', 'Tumour Biol Ther'],
      ['International Review of Radiation Oncology', 'Int Rev Radiat Oncol'],
    ],
    subjects: ['progression-free survival', 'tumour mutational burden', 'PD-L1 expression', 'circulating tumour DNA', 'epithelial–mesenchymal transition', 'cancer-associated fibroblast activity', 'KRAS G12C signalling', 'metastatic spread to the liver', 'HER2 amplification', 'tumour-infiltrating lymphocytes'],
    factors: ['pembrolizumab monotherapy', 'neoadjuvant chemotherapy', 'stereotactic body radiotherapy', 'CDK4/6 inhibition', 'metformin use', 'obesity', 'CAR T-cell therapy', 'olaparib maintenance'],
    populations: ['patients with metastatic non-small-cell lung cancer', 'women with triple-negative breast cancer', 'patients with resectable pancreatic adenocarcinoma', 'men with castration-resistant prostate cancer', 'children with acute lymphoblastic leukaemia', 'patient-derived xenograft models', 'colorectal cancer organoids'],
    methods: ['whole-exome sequencing', 'a phase III randomized trial', 'single-cell RNA sequencing', 'multiplex immunohistochemistry', 'a retrospective registry analysis', 'liquid biopsy profiling', 'CRISPR knockout screening'],
    outcomes: ['overall survival', 'objective response rate', 'grade 3 or higher adverse events', 'pathological complete response', 'recurrence-free survival', 'time to treatment failure'],
    mechanisms: ['T-cell exhaustion', 'homologous recombination deficiency', 'immune evasion via MHC class I loss', 'hypoxia-inducible factor signalling', 'WNT/β-catenin activation', 'clonal haematopoiesis'],
    designs: ['phase II trial', 'multicentre cohort study', 'systematic review', 'pooled analysis', 'population-based study'],
  },
  {
    key: 'cardiology',
    topic: 'Cardiovascular Medicine',
    stats: 'clinical',
    journals: [
      ['European Heart and Vascular Journal', 'Eur Heart Vasc J'],
      ['Cardiovascular Outcomes Research', 'Cardiovasc Outcomes Res'],
      ['Journal of Preventive Cardiology', 'J Prev Cardiol'],
      ['Hypertension and Metabolism', 'Hypertens Metab'],
    ],
    subjects: ['left ventricular ejection fraction', 'atrial fibrillation burden', 'arterial stiffness', 'coronary artery calcium', 'blood pressure variability', 'heart failure hospitalisation', 'endothelial function', 'LDL cholesterol lowering'],
    factors: ['SGLT2 inhibitor therapy', 'sodium intake', 'high-intensity interval training', 'statin discontinuation', 'air pollution exposure', 'shift work', 'catheter ablation', 'a Mediterranean diet'],
    populations: ['adults with type 2 diabetes', 'patients with heart failure with preserved ejection fraction', 'postmenopausal women', 'patients undergoing percutaneous coronary intervention', 'community-dwelling older adults', 'young adults with hypertension'],
    methods: ['cardiac magnetic resonance imaging', 'a pragmatic randomized trial', 'Mendelian randomization', '24-hour ambulatory monitoring', 'a nationwide registry analysis', 'speckle-tracking echocardiography'],
    outcomes: ['major adverse cardiovascular events', 'all-cause mortality', 'systolic blood pressure', 'incident stroke', 'NT-proBNP concentration', 'six-minute walk distance'],
    mechanisms: ['myocardial fibrosis', 'sympathetic overactivity', 'vascular inflammation', 'oxidative stress', 'renin–angiotensin system activation'],
    designs: ['randomized controlled trial', 'prospective cohort study', 'meta-analysis', 'nested case–control study', 'post hoc analysis'],
  },
  {
    key: 'ecology',
    topic: 'Ecology',
    stats: 'environmental',
    journals: [
      ['Journal of Applied Ecology and Conservation', 'J Appl Ecol Conserv'],
      ['Ecosystems and Biodiversity', 'Ecosyst Biodivers'],
      ['Freshwater Biology Letters', 'Freshw Biol Lett'],
      ['Global Change Ecology', 'Glob Change Ecol'],
    ],
    subjects: ['pollinator abundance', 'species richness', 'soil carbon storage', 'coral bleaching frequency', 'seed dispersal distance', 'phenological mismatch', 'predator–prey dynamics', 'invasive plant spread', 'nitrogen deposition effects'],
    factors: ['habitat fragmentation', 'warming of 2 °C', 'grazing exclusion', 'agricultural intensification', 'wildfire frequency', 'urbanisation', 'reintroduction of apex predators', 'drought stress'],
    populations: ['temperate grassland plots', 'tropical montane forests', 'alpine lakes', 'Mediterranean shrublands', 'boreal peatlands', 'wild bee communities', 'reef-building corals', 'migratory songbirds'],
    methods: ['a 15-year field experiment', 'environmental DNA metabarcoding', 'species distribution modelling', 'stable isotope analysis', 'camera-trap surveys', 'a global meta-analysis', 'remote sensing of vegetation indices'],
    outcomes: ['net primary productivity', 'population growth rate', 'functional diversity', 'extinction risk', 'decomposition rate', 'community turnover'],
    mechanisms: ['competitive release', 'trophic cascades', 'niche partitioning', 'microclimatic buffering', 'plant–soil feedbacks'],
    designs: ['field experiment', 'long-term monitoring study', 'global synthesis', 'comparative study', 'modelling study'],
  },
  {
    key: 'materials',
    topic: 'Materials Science',
    stats: 'physical',
    journals: [
      ['Advanced Functional Materials Letters', 'Adv Funct Mater Lett'],
      ['Journal of Energy Materials', 'J Energy Mater'],
      ['Nanostructured Materials and Devices', 'Nanostruct Mater Dev'],
      ['Computational Materials Reports', 'Comput Mater Rep'],
    ],
    subjects: ['perovskite solar cell stability', 'lithium-ion conductivity', 'catalytic hydrogen evolution', 'thermal conductivity of graphene', 'fatigue crack growth', 'solid electrolyte interphase formation', 'photoluminescence quantum yield', 'dendrite suppression in lithium metal anodes'],
    factors: ['nitrogen doping', 'grain boundary engineering', 'atomic layer deposition coatings', 'high-entropy alloying', 'strain engineering', 'annealing temperature', 'surface passivation'],
    populations: ['MoS2 monolayers', 'NMC811 cathodes', 'CsPbI3 nanocrystals', 'Ti-6Al-4V alloys', 'metal–organic frameworks', 'sulfide solid electrolytes', 'carbon nanotube films'],
    methods: ['density functional theory calculations', 'in situ transmission electron microscopy', 'X-ray photoelectron spectroscopy', 'molecular dynamics simulations', 'operando X-ray diffraction', 'electrochemical impedance spectroscopy'],
    outcomes: ['power conversion efficiency', 'capacity retention', 'overpotential', 'tensile strength', 'band gap', 'cycle life'],
    mechanisms: ['defect-mediated recombination', 'phonon scattering at interfaces', 'lattice oxygen redox', 'ion migration', 'dislocation pinning'],
    designs: ['combined experimental and computational study', 'high-throughput screening', 'systematic comparison', 'mechanistic study'],
  },
  {
    key: 'ml',
    topic: 'Computer Science',
    stats: 'computational',
    journals: [
      ['Journal of Machine Learning Systems', 'J Mach Learn Syst'],
      ['Transactions on Neural Computation', 'Trans Neural Comput'],
      ['Computational Linguistics Review', 'Comput Linguist Rev'],
      ['Pattern Analysis and Vision Letters', 'Pattern Anal Vis Lett'],
    ],
    subjects: ['out-of-distribution generalisation', 'few-shot classification', 'retrieval-augmented generation', 'adversarial robustness', 'graph representation learning', 'federated optimisation', 'model calibration', 'neural machine translation', 'protein structure prediction'],
    factors: ['contrastive pretraining', 'low-rank adaptation', 'data augmentation', 'curriculum learning', 'knowledge distillation', 'sparse attention', 'label noise', 'differential privacy'],
    populations: ['ImageNet-scale benchmarks', 'low-resource languages', 'electronic health records', 'molecular property datasets', 'autonomous driving scenes', 'code repositories', 'medical imaging archives'],
    methods: ['transformer-based architectures', 'graph neural networks', 'Bayesian optimisation', 'reinforcement learning from human feedback', 'diffusion models', 'an extensive ablation study'],
    outcomes: ['top-1 accuracy', 'F1 score', 'expected calibration error', 'BLEU score', 'inference latency', 'sample efficiency'],
    mechanisms: ['shortcut learning', 'representation collapse', 'implicit regularisation', 'attention sink formation', 'catastrophic forgetting'],
    designs: ['empirical study', 'benchmark evaluation', 'theoretical analysis', 'large-scale comparison', 'survey'],
  },
  {
    key: 'economics',
    topic: 'Economics',
    stats: 'social',
    journals: [
      ['Journal of Applied Economic Policy', 'J Appl Econ Policy'],
      ['Labour and Development Review', 'Labour Dev Rev'],
      ['Quarterly Journal of Public Finance', 'Q J Public Finance'],
      ['Economics of Health and Education', 'Econ Health Educ'],
    ],
    subjects: ['household consumption smoothing', 'minimum wage employment effects', 'intergenerational mobility', 'firm productivity growth', 'female labour force participation', 'school attendance', 'credit access for smallholders', 'housing affordability'],
    factors: ['conditional cash transfers', 'microfinance expansion', 'trade liberalisation', 'remote work adoption', 'carbon pricing', 'automation exposure', 'monetary tightening'],
    populations: ['rural households in sub-Saharan Africa', 'manufacturing firms in Southeast Asia', 'US commuting zones', 'European regions', 'low-income urban renters', 'secondary school students in Latin America'],
    methods: ['a difference-in-differences design', 'a regression discontinuity design', 'an instrumental variables approach', 'a randomized field experiment', 'structural estimation', 'synthetic control methods'],
    outcomes: ['earnings', 'employment rates', 'test scores', 'consumption expenditure', 'total factor productivity', 'poverty headcount'],
    mechanisms: ['liquidity constraints', 'labour market monopsony', 'information frictions', 'peer effects', 'capital–skill complementarity'],
    designs: ['natural experiment', 'field experiment', 'panel data study', 'quasi-experimental evaluation', 'cross-country analysis'],
  },
  {
    key: 'climate',
    topic: 'Earth and Climate Science',
    stats: 'environmental',
    journals: [
      ['Journal of Climate Dynamics Research', 'J Clim Dyn Res'],
      ['Atmospheric Chemistry Letters', 'Atmos Chem Lett'],
      ['Cryosphere and Sea Level', 'Cryosphere Sea Level'],
      ['Hydrology and Earth Systems', 'Hydrol Earth Syst'],
    ],
    subjects: ['Arctic sea-ice decline', 'extreme precipitation frequency', 'ocean heat uptake', 'aerosol–cloud interactions', 'glacier mass balance', 'monsoon variability', 'permafrost carbon release', 'marine heatwave intensity'],
    factors: ['anthropogenic warming', 'El Niño–Southern Oscillation', 'stratospheric aerosol injection', 'land-use change', 'Atlantic meridional overturning weakening', 'black carbon emissions'],
    populations: ['the Greenland ice sheet', 'the Tibetan Plateau', 'the tropical Pacific', 'Mediterranean river basins', 'the Southern Ocean', 'East African highlands'],
    methods: ['CMIP6 multi-model ensembles', 'satellite altimetry', 'convection-permitting simulations', 'reanalysis data', 'ice-core records', 'attribution analysis'],
    outcomes: ['surface air temperature anomalies', 'sea-level rise', 'streamflow', 'effective radiative forcing', 'drought duration', 'snow cover extent'],
    mechanisms: ['ice–albedo feedback', 'moisture convergence', 'Rossby wave trains', 'thermohaline circulation', 'cloud feedbacks'],
    designs: ['multi-model study', 'observational analysis', 'modelling study', 'attribution study', 'palaeoclimate reconstruction'],
  },
];

export const PREPRINT_SERVER: readonly [string, string] = ['Research Square Preprints', 'Res Sq Preprints'];

export const PUBLISHERS: ReadonlyArray<{ name: string; memberId: number; prefix: string }> = [
  { name: 'Elsevier BV', memberId: 78, prefix: '10.5016' },
  { name: 'Springer Science and Business Media LLC', memberId: 297, prefix: '10.5007' },
  { name: 'Wiley', memberId: 311, prefix: '10.5002' },
  { name: 'Oxford University Press (OUP)', memberId: 286, prefix: '10.5093' },
  { name: 'Frontiers Media SA', memberId: 1965, prefix: '10.5389' },
  { name: 'MDPI AG', memberId: 1968, prefix: '10.5390' },
  { name: 'Public Library of Science (PLoS)', memberId: 340, prefix: '10.5371' },
  { name: 'SAGE Publications', memberId: 179, prefix: '10.5177' },
  { name: 'American Chemical Society (ACS)', memberId: 316, prefix: '10.5021' },
  { name: 'Institute of Electrical and Electronics Engineers (IEEE)', memberId: 263, prefix: '10.5109' },
];

export const GIVEN_NAMES: readonly string[] = [
  'Maria', 'James', 'Wei', 'Aisha', 'Lars', 'Sofia', 'Hiroshi', 'Fatima', 'Daniel', 'Priya', 'Mateo', 'Olga', 'Kwame', 'Elena', 'Thomas',
  'Mei', 'Ahmed', 'Laura', 'Sebastian', 'Ingrid', 'Rahul', 'Chloé', 'Jonas', 'Yuki', 'Amara', 'Pedro', 'Hannah', 'Tariq', 'Anna', 'Kenji',
  'Lucía', 'David', 'Zhen', 'Nadia', 'Erik', 'Grace', 'Omar', 'Isabelle', 'Arjun', 'Katarzyna', 'Samuel', 'Leila', 'Martin', 'Ji-woo',
  'Francesca', 'Michael', 'Ayesha', 'Pablo', 'Sarah', 'Dmitri', 'Noura', 'Henrik', 'Camila', 'Min-jun', 'Rebecca', 'Ibrahim', 'Julia',
  'K. Luan', 'Daniel A.', 'Pradeep J.', 'Emily R.', 'John D.', 'Anne-Marie', 'Jean-Luc', 'Xiaoling', 'Oluwaseun', 'Björn', 'Zoë', 'Søren',
];

export const FAMILY_NAMES: readonly string[] = [
  'Smith', 'Wang', 'Müller', 'García', 'Kim', 'Nguyen', 'Okafor', 'Rossi', 'Johansson', 'Patel', 'Tanaka', 'Kowalski', 'Silva', 'Ivanova',
  'Chen', 'Hernández', 'Dubois', 'Andersen', 'Haddad', "O'Connor", 'Li', 'Yamamoto', 'Novak', 'Ferreira', 'Schmidt', 'Mensah', 'Zhang',
  'Fitzgerald', 'Nathan', 'Tancer', 'Phan', 'Larsen', 'Kaur', 'Moreau', 'Bianchi', 'Nakamura', 'Popescu', 'Ahmadi', 'Virtanen', 'Costa',
  'Brown', 'Liu', 'Jensen', 'Singh', 'Park', 'Martínez', 'Fischer', 'Yilmaz', 'Santos', 'Romano', 'Eriksson', 'Adeyemi', 'Huang', 'Kovács',
  'Lindqvist', 'Sato', 'Wilson', 'Rahman', 'Morales', 'Weber', 'Hoffmann', 'Gupta', 'Dlamini', 'Van der Berg', 'Ó Briain', 'Zhou',
];

export const AFFILIATIONS: readonly string[] = [
  'University of Chicago', 'Wayne State University', 'Monash University', 'University of Oxford', 'Karolinska Institutet', 'University of Tokyo',
  'ETH Zurich', 'University of Cape Town', 'Universidade de São Paulo', 'McGill University', 'University of Melbourne', 'Peking University',
  'Sorbonne Université', 'Ludwig-Maximilians-Universität München', 'University of Edinburgh', 'Seoul National University', 'University of Toronto',
  'Indian Institute of Science', 'University of Copenhagen', 'Stanford University', 'University College London', 'National University of Singapore',
  'Universidad de Buenos Aires', 'University of Nairobi', 'Tsinghua University', 'Utrecht University', 'University of Helsinki', 'KU Leuven',
  'Max Planck Institute for Human Cognitive and Brain Sciences', 'Institut Pasteur', 'Weizmann Institute of Science', 'University of Washington',
  'Imperial College London', 'Universitat de Barcelona', 'University of Auckland', 'Makerere University', 'Fudan University', 'Delft University of Technology',
  'University of Michigan', 'Charité – Universitätsmedizin Berlin', 'Aarhus University', 'Kyoto University', 'University of Ibadan', 'Duke University',
];

/** Countries for patents, grants and trials. */
export const COUNTRIES: readonly string[] = ['US', 'GB', 'DE', 'FR', 'JP', 'CN', 'KR', 'CA', 'AU', 'NL', 'SE', 'CH', 'IN', 'BR'];

export const COMPANIES: readonly string[] = [
  'Helix Therapeutics Inc', 'Northwind Medical Devices', 'Aurora Biosciences', 'Quantum Materials Corp', 'Meridian Diagnostics', 'BlueRiver Pharma',
  'Cardiona Systems', 'Synapse Neurotech', 'Verdant Agritech', 'Lumen Photonics', 'Orbital Energy Storage', 'Cobalt Imaging Ltd', 'Tidewater Health',
];

export const AGENCIES: ReadonlyArray<readonly [agency: string, branch: string, program: string]> = [
  ['National Institutes of Health', 'National Institute of Mental Health', 'Research Project Grant (R01)'],
  ['National Institutes of Health', 'National Cancer Institute', 'Cancer Center Support Grant'],
  ['National Institutes of Health', 'National Heart, Lung, and Blood Institute', 'Exploratory/Developmental Grant (R21)'],
  ['National Science Foundation', 'Directorate for Biological Sciences', 'Division of Environmental Biology'],
  ['National Science Foundation', 'Directorate for Computer and Information Science', 'CAREER'],
  ['Department of Energy', 'Office of Science', 'Basic Energy Sciences'],
  ['Small Business Administration', 'SBIR', 'Small Business Innovation Research'],
  ['European Research Council', 'ERC', 'Consolidator Grant'],
];

export const US_STATES: readonly string[] = ['CA', 'MA', 'NY', 'TX', 'WA', 'IL', 'PA', 'NC', 'MD', 'MI', 'OH', 'GA', 'MN', 'CO'];

export const DEVICE_TYPES: ReadonlyArray<readonly [name: string, productCode: string, panel: string]> = [
  ['Continuous glucose monitoring system', 'QBJ', 'Clinical Chemistry'],
  ['Implantable cardiac pacemaker lead', 'DTB', 'Cardiovascular'],
  ['Powered surgical stapler', 'GDW', 'General and Plastic Surgery'],
  ['Infusion pump', 'FRN', 'General Hospital'],
  ['Magnetic resonance diagnostic device', 'LNH', 'Radiology'],
  ['Hip joint metal/polymer prosthesis', 'LPH', 'Orthopedic'],
  ['Pulse oximeter', 'DQA', 'Anesthesiology'],
  ['Intraocular lens', 'HQL', 'Ophthalmic'],
  ['Computer-assisted detection software for lesions', 'QIH', 'Radiology'],
  ['Wearable electrocardiograph', 'DXH', 'Cardiovascular'],
];

export const DRUGS: readonly string[] = [
  'ATORVASTATIN', 'METFORMIN', 'PEMBROLIZUMAB', 'LISINOPRIL', 'SERTRALINE', 'ADALIMUMAB', 'APIXABAN', 'SEMAGLUTIDE', 'OLAPARIB', 'KETAMINE',
  'DAPAGLIFLOZIN', 'NIVOLUMAB', 'LEVOTHYROXINE', 'ESCITALOPRAM', 'WARFARIN',
];

export const REACTIONS: readonly string[] = [
  'Nausea', 'Headache', 'Dizziness', 'Hypoglycaemia', 'Rash', 'Acute kidney injury', 'Pneumonitis', 'Fatigue', 'Diarrhoea', 'Hepatotoxicity',
  'Anaphylactic reaction', 'Atrial fibrillation', 'Haemorrhage', 'Insomnia', 'Myocarditis',
];

export const MAUDE_PROBLEMS: readonly string[] = [
  'Device Malfunction', 'Battery Problem', 'Inaccurate Reading', 'Break', 'Leak/Splash', 'Electrical Shorting', 'Software Error', 'Occlusion',
  'Migration of Device', 'Alarm Not Visible', 'Overheating of Device',
];
