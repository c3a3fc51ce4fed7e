/** @module Portuguese answers (Brazilian and European) of the language-check corpus. */
import type { Entry } from "./corpus.ts";

/** Portuguese answers (Brazilian and European). */
export default [
  ["text", "Sim, ele diz que a bateria dura umas dez horas [2:31]."],
  ["text", "Não, a receita usa manteiga, não óleo [0:45]."],
  ["markdown", "**Resposta curta:** a partida terminou 2 a 1 [1:32:10]."],
  ["text", "O palestrante recomenda PostgreSQL em vez de MongoDB para esse caso [14:02]."],
  ["text", "Ela usa uma Canon EOS R6 com uma lente de 35 mm [3:15]."],
  ["markdown", "- Preço: R$ 2.499 [0:40]\n- Peso: 1,2 kg [1:05]"],
  [
    "text",
    "O vídeo analisa o Surface Go, um tablet pequeno e leve. O autor gosta da tela e do teclado, e acha que é uma boa compra para estudantes [0:01]. Ele ficou menos satisfeito com a bateria, que durou cerca de seis horas nos testes [4:12].",
  ],
  [
    "text",
    "A aula explica como a fotossíntese transforma luz em energia química. O professor começa pelas reações que dependem da luz na membrana dos tilacoides [3:20], passa para o ciclo de Calvin [11:45] e termina com um pequeno teste para os alunos [42:10].",
  ],
  [
    "markdown",
    "## Resumo\n\nA cozinheira prepara uma carbonara clássica com guanciale, gemas de ovo e Pecorino Romano [0:35]. Ela insiste que o molho **não leva creme de leite** [2:10] e mistura a massa fora do fogo para o ovo não talhar [6:48].",
  ],
  [
    "markdown",
    "Os pontos principais da palestra são:\n\n1. Kubernetes é exagero para a maioria das equipes pequenas [5:12].\n2. Uma única máquina virtual com Docker Compose basta até você precisar de escalonamento automático [9:30].\n3. A observabilidade com Prometheus e Grafana deve vir primeiro [17:05].",
  ],
  [
    "text",
    "No segundo tempo o Real Madrid mudou o esquema. Ancelotti levou o Valverde para a ponta direita [58:20] e colocou o Rodrygo, que fez o gol de empate dez minutos depois [68:44]. Os comentaristas acharam que a substituição decidiu o jogo.",
  ],
  [
    "text",
    "O apresentador compara o iPhone 15 Pro e o Pixel 8 Pro. Ele prefere a câmera do Pixel com pouca luz [6:02], mas diz que o iPhone tem melhor estabilização de vídeo e um chip A17 Pro mais rápido [9:47]. No fim, recomenda o Pixel para a maioria das pessoas.",
  ],
  [
    "markdown",
    "### Ingredientes citados\n\n- 500 g de farinha de trigo [0:50]\n- 10 g de sal\n- 7 g de fermento biológico seco [1:12]\n- 350 ml de água morna\n\nA massa descansa duas horas antes de ser modelada [4:30].",
  ],
  [
    "text",
    "Segundo o vídeo, o Império Romano se dividiu em oriente e ocidente no ano 395 [7:40]. O narrador defende que a metade ocidental caiu por causa de problemas financeiros e da pressão nas fronteiras, e não por uma única invasão [15:22].",
  ],
  [
    "text",
    "O tutorial mostra como criar uma aplicação React com Vite e TypeScript. Ele instala o Tailwind CSS [4:05], configura o ESLint e o Prettier [8:30] e publica o resultado na Vercel com uma GitHub Action [21:14].",
  ],
  [
    "markdown",
    "O autor dá ao **Sony WH-1000XM5** quatro estrelas de cinco [12:30]. O cancelamento de ruído é o melhor que ele já testou, e o som é quente e detalhado [5:44]. As queixas são o estojo, que não dobra mais, e o preço de 399 dólares [10:02].",
  ],
  [
    "text",
    "O treinador explica que um bom agachamento começa no quadril, não nos joelhos. Mantenha o peito erguido, empurre os joelhos para fora e desça até as coxas ficarem paralelas ao chão [2:18]. Para iniciantes, ele sugere três séries de oito repetições [6:55].",
  ],
  [
    "text",
    "O documentário acompanha uma família de elefantes pelo Kalahari durante a estação seca. A matriarca leva o grupo até um poço escondido [22:10], e um filhote fica preso na lama até a manada conseguir puxá-lo [31:45].",
  ],
  [
    "markdown",
    "| Modelo | Preço | Bateria |\n|---|---|---|\n| MacBook Air M3 | R$ 12.999 | 18 h |\n| Dell XPS 13 | R$ 10.499 | 12 h |\n\nO apresentador escolhe o MacBook Air pela duração da bateria [13:20].",
  ],
  [
    "text",
    "A economista diz que a inflação caiu porque os preços da energia baixaram e as cadeias de abastecimento se recuperaram depois da pandemia [4:50]. Ela não espera que o Federal Reserve corte os juros antes de o mercado de trabalho esfriar [11:30].",
  ],
  [
    "text",
    "Ele toca o riff numa Fender Stratocaster ligada a um amplificador Marshall, com um pouco de distorção de um pedal Tube Screamer [1:40]. O segredo do som, segundo ele, é abafar com a palma da mão a corda mais grave [3:05].",
  ],
  [
    "markdown",
    "**Sim.** O palestrante menciona que o script em Python roda toda noite como tarefa do cron [7:12] e que grava os resultados num bucket do S3 antes de o painel ser atualizado [8:01].",
  ],
  [
    "text",
    "O vídeo é um passeio a pé por Lisboa. Começa na Alfama, perto da Sé [0:30], sobe até o Castelo de São Jorge [6:15] e termina com pastéis de nata em Belém [24:50]. O guia recomenda pegar o elétrico 28 bem cedo para fugir das multidões.",
  ],
  [
    "text",
    "A professora resolve a equação do segundo grau completando o quadrado [3:40]. Depois mostra que a fórmula de Bhaskara dá as mesmas duas raízes, x = 2 e x = -5 [8:12], e pede à turma que confira substituindo os valores.",
  ],
  [
    "markdown",
    "## O que deu errado\n\nA queda começou quando uma mudança de configuração foi publicada em todas as regiões ao mesmo tempo [2:05]. Os balanceadores de carga não conseguiam acessar o endpoint de health check e marcaram todos os servidores como fora do ar [4:40]. A equipe reverteu a mudança depois de 47 minutos [9:30].",
  ],
  ["text", "Não exatamente. O vídeo só menciona a vitamina D de passagem [12:44] e não diz quanto tomar."],
  [
    "text",
    "A youtuber testa um Tesla Model 3 numa viagem longa de Los Angeles a São Francisco. Ela para duas vezes em Superchargers [8:20] e diz que o carro gastou menos energia do que o esperado na estrada [15:35].",
  ],
  [
    "markdown",
    "Os passos mostrados são:\n\n- Tirar a tampa traseira com uma palheta de plástico [1:10]\n- Desligar primeiro o conector da bateria [2:45]\n- Soltar os quatro parafusos Phillips que prendem a ventoinha [4:02]\n- Limpar a poeira com ar comprimido [5:30]",
  ],
  [
    "text",
    "Neste episódio o historiador fala da construção do Canal do Panamá. A tentativa francesa fracassou por causa da febre amarela e da malária [6:30], e os americanos só conseguiram depois de drenar os pântanos e construir as eclusas [19:15].",
  ],
  [
    "text",
    "O palestrante acha que os grandes modelos de linguagem são úteis para escrever código, mas avisa que eles inventam APIs que não existem [10:22]. Ele recomenda sempre rodar os testes e ler o diff antes de fazer o merge [14:48].",
  ],
  [
    "markdown",
    "**Veredito:** o Nintendo Switch OLED vale a pena se você joga muito no modo portátil [9:15]. A tela é mais brilhante e o suporte é bem melhor, mas o desempenho é igual ao do modelo original [6:40].",
  ],
  [
    "text",
    "A cozinheira faz uma sopa de lentilha simples. Ela refoga cebola, cenoura e salsão no azeite [1:20], junta lentilhas vermelhas, cominho e caldo de legumes [3:05] e bate metade da sopa no fim para ficar cremosa [9:40].",
  ],
  [
    "text",
    "Djokovic venceu o primeiro set por 6-4 depois de quebrar o saque no nono game [24:10]. Alcaraz reagiu no segundo set com devoluções agressivas e várias deixadas [51:30], mas perdeu o tie-break do terceiro.",
  ],
  [
    "markdown",
    "## Datas importantes\n\n- 1969: a Apollo 11 pousa na Lua [3:12]\n- 1981: primeiro voo do ônibus espacial [9:45]\n- 1998: começa a montagem da ISS [14:20]\n\nO apresentador termina falando do programa Artemis [21:05].",
  ],
  [
    "text",
    "A análise diz que o Samsung Galaxy S24 Ultra tem o melhor zoom do mercado, com uma lente teleobjetiva de 5 vezes [7:33]. A moldura de titânio é mais leve que a do ano passado, mas a S Pen ainda parece um acessório esquecido [11:02].",
  ],
  [
    "text",
    "Ele explica que juros compostos são juros sobre juros. Se você investir mil reais a 7% ao ano, terá cerca de dois mil depois de dez anos [4:15]. Começar cedo, diz ele, importa mais do que escolher o fundo perfeito.",
  ],
  [
    "markdown",
    "O bug era uma condição de corrida no **pool de conexões** [12:40]. Duas goroutines podiam pegar a mesma conexão porque o mutex era liberado cedo demais. A correção move o `Unlock()` para depois da atualização do mapa [15:10].",
  ],
  [
    "text",
    "A professora de ioga conduz uma rotina matinal de vinte minutos. Começa com respiração no tapete [0:45], passa pelas saudações ao sol [5:20] e termina com uma longa postura da criança e savasana [17:30].",
  ],
  [
    "text",
    "O apresentador monta um PC gamer com um Ryzen 7 7800X3D, uma RTX 4070 Super e 32 GB de memória DDR5 [2:10]. Ele avisa que é preciso atualizar a BIOS antes de instalar o Windows, senão o computador pode não ligar [18:45].",
  ],
  [
    "markdown",
    "Sim, duas vezes:\n\n1. Em [3:22] ela diz que o filme foi gravado na Islândia.\n2. Em [27:40] acrescenta que a equipe esperou semanas pelo tempo certo.",
  ],
  [
    "text",
    "A aula trata de oferta e procura. Quando o preço de um bem sobe, as pessoas compram menos e os produtores querem vender mais [5:05]. O ponto em que as duas curvas se cruzam é o equilíbrio de mercado [12:18].",
  ],
  [
    "text",
    "A jardineira planta tomates em canteiros elevados com composto e um pouco de farinha de osso [2:30]. Ela rega bem duas vezes por semana em vez de um pouco todos os dias, o que, segundo ela, dá raízes mais fortes [6:50].",
  ],
  [
    "markdown",
    "### Prós\n- Teclado ótimo [4:10]\n- Ventoinhas silenciosas\n\n### Contras\n- Tela pouco brilhante [7:25]\n- Só duas portas USB-C\n\nNo geral, o ThinkPad X1 Carbon é a escolha dele para viagens de trabalho [12:00].",
  ],
  [
    "text",
    "O vídeo explica como as vacinas treinam o sistema imunológico. Uma parte inofensiva do vírus, como a proteína spike, ensina os linfócitos B a produzir anticorpos [3:45], e as células de memória se lembram dela por anos [8:10].",
  ],
  [
    "text",
    "O streamer derrota o chefe final de Elden Ring com uma build de sangramento e a katana Rivers of Blood [1:12:30]. Ele diz que a segunda fase é basicamente ficar atrás do chefe e esperar a brecha certa.",
  ],
  [
    "markdown",
    "Os conselhos do autor para a primeira maratona:\n\n- Faça a maior parte dos treinos num ritmo leve, em que dá para conversar [3:30]\n- Não aumente a distância semanal mais de dez por cento [6:15]\n- Treine o consumo de géis nos longões [11:40]",
  ],
  [
    "text",
    "O guia diz que a melhor época para ver a aurora boreal na Noruega vai do fim de setembro a março [2:20], em noites limpas e longe das luzes de Tromsø [5:45].",
  ],
  [
    "text",
    "O autor achou o Kindle Paperwhite confortável para ler na cama por causa da luz quente [3:50]. A bateria dura semanas e finalmente tem porta USB-C [6:05].",
  ],
  [
    "markdown",
    "Não. O palestrante diz que **Rust** não é a escolha certa para este protótipo [18:30]; a equipe vai escrever primeiro em Go e reescrever a parte crítica depois, se o profiling mostrar necessidade [21:15].",
  ],
  [
    "text",
    "A professora de química mistura bicarbonato de sódio e vinagre para mostrar uma reação ácido-base [1:50]. As bolhas são gás carbônico, e ela prende o gás num balão para provar [4:20].",
  ],
  [
    "text",
    "O review do MacBook Pro M3 Max fala de Final Cut Pro, DaVinci Resolve, Xcode e Docker Desktop, e conclui que o chip aguenta exportações em 8K sem problemas [5:10].",
  ],
  [
    "text",
    "O palestrante explica que o frontend faz polling no backend a cada cinco segundos [3:10] e que o pipeline de CI/CD faz o deploy em staging antes da produção. Ele recomenda usar feature flags e fazer rollback se os smoke tests falharem [7:45].",
  ],
  [
    "text",
    "O palestrante cita a frase “move fast and break things” [2:40] e diz que ela não serve para um banco, onde cada erro em produção custa dinheiro e a confiança dos clientes [4:15].",
  ],
] satisfies readonly Entry[];
