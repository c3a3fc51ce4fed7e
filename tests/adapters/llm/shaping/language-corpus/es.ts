/** @module Spanish answers of the language-check corpus. */
import type { Entry } from "./corpus.ts";

/** Spanish answers. */
export default [
  ["text", "Sí, dice que la batería dura unas diez horas [2:31]."],
  ["text", "No, la receta lleva mantequilla, no aceite [0:45]."],
  ["markdown", "**Respuesta corta:** el partido terminó 2-1 [1:32:10]."],
  ["text", "El ponente recomienda PostgreSQL en lugar de MongoDB para este caso [14:02]."],
  ["text", "Usa una Canon EOS R6 con un objetivo de 35 mm [3:15]."],
  ["markdown", "- Precio: 399 € [0:40]\n- Peso: 1,2 kg [1:05]"],
  [
    "text",
    "El vídeo analiza la Surface Go, una tableta pequeña y ligera. Al autor le gustan la pantalla y el teclado, y cree que es una buena compra para estudiantes [0:01]. Le convence menos la batería, que en sus pruebas duró unas seis horas [4:12].",
  ],
  [
    "text",
    "La clase explica cómo la fotosíntesis convierte la luz en energía química. El profesor empieza por las reacciones que dependen de la luz en la membrana de los tilacoides [3:20], sigue con el ciclo de Calvin [11:45] y termina con un pequeño examen [42:10].",
  ],
  [
    "markdown",
    "## Resumen\n\nLa cocinera prepara una carbonara clásica con guanciale, yemas de huevo y Pecorino Romano [0:35]. Insiste en que la salsa **no lleva nata** [2:10] y mezcla la pasta fuera del fuego para que el huevo no se cuaje [6:48].",
  ],
  [
    "markdown",
    "Las ideas principales de la charla son:\n\n1. Kubernetes es excesivo para la mayoría de los equipos pequeños [5:12].\n2. Una sola máquina virtual con Docker Compose basta hasta que se necesita autoescalado [9:30].\n3. La observabilidad con Prometheus y Grafana debe ir primero [17:05].",
  ],
  [
    "text",
    "En la segunda parte el Real Madrid cambió el dibujo. Ancelotti pasó a Valverde a la banda derecha [58:20] y sacó a Rodrygo, que marcó el empate diez minutos después [68:44]. Los comentaristas creen que ese cambio ganó el partido.",
  ],
  [
    "text",
    "El presentador compara el iPhone 15 Pro y el Pixel 8 Pro. Prefiere la cámara del Pixel con poca luz [6:02], pero dice que el iPhone estabiliza mejor el vídeo y tiene un chip A17 Pro más rápido [9:47]. Al final recomienda el Pixel a casi todo el mundo.",
  ],
  [
    "markdown",
    "### Ingredientes que menciona\n\n- 500 g de harina [0:50]\n- 10 g de sal\n- 7 g de levadura seca [1:12]\n- 350 ml de agua tibia\n\nLa masa reposa dos horas antes de formar el pan [4:30].",
  ],
  [
    "text",
    "Según el vídeo, el Imperio romano se dividió en oriente y occidente en el año 395 [7:40]. El narrador sostiene que la mitad occidental cayó por problemas de dinero y por la presión en las fronteras, no por una sola invasión [15:22].",
  ],
  [
    "text",
    "El tutorial enseña a montar una aplicación de React con Vite y TypeScript. Instala Tailwind CSS [4:05], configura ESLint y Prettier [8:30] y publica el resultado en Vercel con una GitHub Action [21:14].",
  ],
  [
    "markdown",
    "El autor le da a los **Sony WH-1000XM5** cuatro estrellas de cinco [12:30]. La cancelación de ruido es la mejor que ha probado y el sonido es cálido y detallado [5:44]. Se queja del estuche, que ya no se pliega, y del precio de 399 dólares [10:02].",
  ],
  [
    "text",
    "El entrenador explica que una buena sentadilla empieza en la cadera, no en las rodillas. Mantén el pecho arriba, empuja las rodillas hacia fuera y baja hasta que los muslos queden paralelos al suelo [2:18]. Para principiantes sugiere tres series de ocho repeticiones [6:55].",
  ],
  [
    "text",
    "El documental sigue a una familia de elefantes por el Kalahari durante la estación seca. La matriarca los lleva a una charca escondida [22:10] y una cría se queda atrapada en el barro hasta que la manada la saca [31:45].",
  ],
  [
    "markdown",
    "| Modelo | Precio | Batería |\n|---|---|---|\n| MacBook Air M3 | 1.199 € | 18 h |\n| Dell XPS 13 | 1.099 € | 12 h |\n\nEl presentador elige el MacBook Air por su autonomía [13:20].",
  ],
  [
    "text",
    "La economista dice que la inflación bajó porque cayeron los precios de la energía y se recuperaron las cadenas de suministro después de la pandemia [4:50]. No espera que la Reserva Federal baje los tipos antes de que se enfríe el mercado laboral [11:30].",
  ],
  [
    "text",
    "Toca el riff con una Fender Stratocaster conectada a un amplificador Marshall, con un poco de saturación de un pedal Tube Screamer [1:40]. La clave del sonido, según él, es apagar con la palma la sexta cuerda [3:05].",
  ],
  [
    "markdown",
    "**Sí.** El ponente menciona que el script de Python se ejecuta cada noche como tarea de cron [7:12] y que guarda los resultados en un bucket de S3 antes de que se actualice el panel [8:01].",
  ],
  [
    "text",
    "El vídeo es un paseo por Lisboa. Empieza en la Alfama, cerca de la catedral [0:30], sube al castillo de San Jorge [6:15] y termina con pasteles de nata en Belém [24:50]. El guía aconseja coger el tranvía 28 temprano para evitar las multitudes.",
  ],
  [
    "text",
    "La profesora resuelve la ecuación de segundo grado completando el cuadrado [3:40]. Después muestra que la fórmula general da las mismas dos raíces, x = 2 y x = -5 [8:12], y pide a la clase que lo compruebe sustituyendo.",
  ],
  [
    "markdown",
    "## Qué falló\n\nLa caída empezó cuando se publicó un cambio de configuración en todas las regiones a la vez [2:05]. Los balanceadores de carga no podían llegar al endpoint de health check, así que marcaron todos los servidores como caídos [4:40]. El equipo volvió atrás a los 47 minutos [9:30].",
  ],
  ["text", "No exactamente. El vídeo solo menciona la vitamina D de pasada [12:44] y no dice cuánta tomar."],
  [
    "text",
    "La youtuber prueba un Tesla Model 3 en un viaje largo de Los Ángeles a San Francisco. Para dos veces en Superchargers [8:20] y dice que el coche gastó menos energía de la que esperaba en la autopista [15:35].",
  ],
  [
    "markdown",
    "Los pasos que muestra son:\n\n- Quitar la tapa trasera con una púa de plástico [1:10]\n- Desconectar primero el conector de la batería [2:45]\n- Desatornillar los cuatro tornillos Phillips del ventilador [4:02]\n- Limpiar el polvo con aire comprimido [5:30]",
  ],
  [
    "text",
    "En este episodio el historiador habla de la construcción del canal de Panamá. El intento francés fracasó por la fiebre amarilla y la malaria [6:30], y los estadounidenses solo lo lograron después de secar los pantanos y construir las esclusas [19:15].",
  ],
  [
    "text",
    "El ponente cree que los grandes modelos de lenguaje son útiles para escribir código, pero advierte que se inventan APIs que no existen [10:22]. Recomienda ejecutar siempre los tests y leer el diff antes de hacer merge [14:48].",
  ],
  [
    "markdown",
    "**Veredicto:** la Nintendo Switch OLED merece la pena si juegas mucho en modo portátil [9:15]. La pantalla es más brillante y el soporte es mucho mejor, pero el rendimiento es igual que el del modelo original [6:40].",
  ],
  [
    "text",
    "La cocinera hace una sopa de lentejas sencilla. Sofríe cebolla, zanahoria y apio en aceite de oliva [1:20], añade lentejas rojas, comino y caldo de verduras [3:05] y tritura la mitad de la sopa al final para que quede cremosa [9:40].",
  ],
  [
    "text",
    "Djokovic ganó el primer set 6-4 tras romper el servicio en el noveno juego [24:10]. Alcaraz reaccionó en el segundo con restos agresivos y varias dejadas [51:30], pero perdió el tie-break del tercero.",
  ],
  [
    "markdown",
    "## Fechas clave\n\n- 1969: el Apolo 11 llega a la Luna [3:12]\n- 1981: primer vuelo del transbordador espacial [9:45]\n- 1998: empieza el montaje de la ISS [14:20]\n\nEl presentador termina hablando del programa Artemis [21:05].",
  ],
  [
    "text",
    "La reseña dice que el Samsung Galaxy S24 Ultra tiene el mejor zoom del mercado, con un teleobjetivo de 5 aumentos [7:33]. El marco de titanio es más ligero que el del año pasado, pero el S Pen sigue pareciendo un añadido [11:02].",
  ],
  [
    "text",
    "Explica que el interés compuesto es interés sobre interés. Si inviertes 1.000 dólares al 7 % anual, tendrás unos 2.000 al cabo de diez años [4:15]. Empezar pronto, dice, importa más que elegir el fondo perfecto.",
  ],
  [
    "markdown",
    "El error era una condición de carrera en el **pool de conexiones** [12:40]. Dos goroutines podían coger la misma conexión porque el mutex se liberaba demasiado pronto. La solución mueve `Unlock()` después de actualizar el mapa [15:10].",
  ],
  [
    "text",
    "La profesora de yoga guía una rutina matinal de veinte minutos. Empieza con respiraciones en la esterilla [0:45], sigue con saludos al sol [5:20] y acaba con una postura del niño larga y savasana [17:30].",
  ],
  [
    "text",
    "El presentador monta un PC gaming con un Ryzen 7 7800X3D, una RTX 4070 Super y 32 GB de memoria DDR5 [2:10]. Avisa de que hay que actualizar la BIOS antes de instalar Windows, o puede que el equipo no arranque [18:45].",
  ],
  [
    "markdown",
    "Sí, dos veces:\n\n1. En [3:22] dice que la película se rodó en Islandia.\n2. En [27:40] añade que el equipo esperó semanas a que hiciera el tiempo adecuado.",
  ],
  [
    "text",
    "La clase trata de la oferta y la demanda. Cuando sube el precio de un bien, la gente compra menos y los productores quieren vender más [5:05]. El punto donde se cruzan las dos curvas es el equilibrio del mercado [12:18].",
  ],
  [
    "text",
    "La jardinera planta tomates en bancales elevados con compost y un poco de harina de huesos [2:30]. Los riega a fondo dos veces por semana en vez de un poco cada día, lo que según ella da raíces más fuertes [6:50].",
  ],
  [
    "markdown",
    "### A favor\n- Teclado excelente [4:10]\n- Ventiladores silenciosos\n\n### En contra\n- Pantalla poco brillante [7:25]\n- Solo dos puertos USB-C\n\nEn conjunto, el ThinkPad X1 Carbon es su elección para viajes de trabajo [12:00].",
  ],
  [
    "text",
    "El vídeo explica cómo las vacunas entrenan al sistema inmunitario. Una parte inofensiva del virus, como la proteína de la espícula, enseña a los linfocitos B a fabricar anticuerpos [3:45], y las células de memoria la recuerdan durante años [8:10].",
  ],
  [
    "text",
    "El streamer derrota al jefe final de Elden Ring con una build de sangrado y la katana Rivers of Blood [1:12:30]. Dice que la segunda fase consiste sobre todo en quedarse detrás del jefe y esperar el momento justo.",
  ],
  [
    "markdown",
    "Los consejos del autor para un primer maratón:\n\n- Haz casi todo el entrenamiento a un ritmo suave, en el que puedas hablar [3:30]\n- No aumentes la distancia semanal más de un diez por ciento [6:15]\n- Practica tomar geles en las tiradas largas [11:40]",
  ],
  [
    "text",
    "El guía dice que la mejor época para ver auroras boreales en Noruega va de finales de septiembre a marzo [2:20], en noches despejadas y lejos de las luces de Tromsø [5:45].",
  ],
  [
    "text",
    "Al autor el Kindle Paperwhite le resultó cómodo para leer en la cama gracias a la luz cálida [3:50]. La batería dura semanas y por fin tiene puerto USB-C [6:05].",
  ],
  [
    "markdown",
    "No. El ponente dice que **Rust** no es la opción adecuada para este prototipo [18:30]; el equipo lo escribirá primero en Go y reescribirá la parte crítica más adelante si el profiling lo pide [21:15].",
  ],
  [
    "text",
    "La profesora de química mezcla bicarbonato y vinagre para mostrar una reacción ácido-base [1:50]. Las burbujas son dióxido de carbono, y recoge el gas en un globo para demostrarlo [4:20].",
  ],
  [
    "text",
    "El review del MacBook Pro M3 Max habla de Final Cut Pro, DaVinci Resolve, Xcode y Docker Desktop, y concluye que el chip aguanta exportaciones 8K sin problemas [5:10].",
  ],
  [
    "text",
    "El ponente explica que el frontend hace polling al backend cada cinco segundos [3:10], y que el pipeline de CI/CD hace el deploy en staging antes de producción. Recomienda usar feature flags y hacer rollback si fallan los smoke tests [7:45].",
  ],
  [
    "text",
    'El ponente cita la frase "we should never deploy on a Friday afternoon" [3:10] y explica que en su empresa los despliegues se hacen solo los martes y miércoles, con el equipo completo disponible [5:20].',
  ],
  [
    "markdown",
    "El vídeo no lo dice. Solo menciona la guía https://example.com/docs/getting-started-with-the-api y el comando `npm install --save-dev typescript` [1:10], sin explicar nada más sobre la configuración.",
  ],
] satisfies readonly Entry[];
